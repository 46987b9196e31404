/**
 * Native and translated text side by side (E.i.1.1a native term with its language E.i.1.1b, and
 * the translation E.i.1.2): bilingual entry keeps the original wording next to the translation.
 */
import type { ReactNode } from 'react';
import { Caption1Strong, makeStyles, tokens } from '@fluentui/react-components';
import { useCaseFormText } from './text';

export interface PairKeys {
  native: string;
  language?: string;
  translation?: string;
}

/** Pairs among form keys: `xNative` with `xNativeLanguage` and `xTranslation`. */
export function textPairs(names: string[]): PairKeys[] {
  const set = new Set(names);
  return names
    .filter((name) => /Native$/.test(name))
    .map((native) => {
      const stem = native.slice(0, -'Native'.length);
      const pair: PairKeys = { native };
      if (set.has(`${native}Language`)) pair.language = `${native}Language`;
      if (set.has(`${stem}Translation`)) pair.translation = `${stem}Translation`;
      return pair;
    })
    .filter((pair) => pair.translation !== undefined);
}

const useStyles = makeStyles({
  box: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 2fr)',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingVerticalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  caption: { gridColumn: '1 / -1' },
});

export function TextPair({
  native,
  language,
  translation,
}: {
  native: ReactNode;
  language?: ReactNode;
  translation?: ReactNode;
}) {
  const styles = useStyles();
  const { tx } = useCaseFormText();
  return (
    <div className={styles.box} data-testid="text-pair">
      <Caption1Strong className={styles.caption}>{tx('textPair')}</Caption1Strong>
      <div>{native}</div>
      <div>{language}</div>
      <div>{translation}</div>
    </div>
  );
}
