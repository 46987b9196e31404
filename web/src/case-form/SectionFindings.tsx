/**
 * The check's findings about a repeating section as a whole (at least one reporter, exactly one
 * primary source ...), under the section's title: their pointer is the list's, which no field shows.
 */
import { memo, useCallback, useSyncExternalStore } from 'react';
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCaseFormText } from './text';
import type { CaseStore } from './store';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  error: { color: tokens.colorPaletteRedForeground1 },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1 },
});

function SectionFindingsImpl({ store, pointer }: { store: CaseStore; pointer: string }) {
  const styles = useStyles();
  const { label: pickText } = useCaseFormText();
  const subscribe = useCallback(
    (listener: () => void) => store.findings.subscribe(pointer, listener),
    [store, pointer],
  );
  const findings = useSyncExternalStore(subscribe, () => store.findings.at(pointer));
  if (!findings.length) return null;
  return (
    <div className={styles.list} data-pointer={pointer} role="alert">
      {findings.map((finding, i) => (
        <Text
          key={i}
          size={200}
          className={finding.severity === 'error' ? styles.error : styles.warning}
          data-finding={finding.path}
          data-rule={finding.ruleId}
          data-severity={finding.severity}
        >
          {pickText(finding.message)}
        </Text>
      ))}
    </div>
  );
}

export const SectionFindings = memo(SectionFindingsImpl);
