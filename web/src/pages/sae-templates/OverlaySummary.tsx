/** The readable contents of a project SAE template's overlay (sections of lines). */
import { Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { FEATURE_SWITCH_NAMES } from '@pv/engine';
import { useLanguage } from '../../i18n/LanguageContext';
import type { Overlay } from './summary';
import { overlaySections } from './summary';
import { useSaeText } from './text';
import { useConfiguratorText } from '../configurator/text';
import type { ConfiguratorKey } from '../configurator/text';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
});

export function OverlaySummary({ overlay }: { overlay: Overlay }) {
  const styles = useStyles();
  const { st } = useSaeText();
  const { pick } = useLanguage();
  const { ct } = useConfiguratorText();
  // The configurator names each switch (uiFeatureSdv ...); an unknown name shows as it is.
  const featureLabel = (name: string) =>
    (FEATURE_SWITCH_NAMES as readonly string[]).includes(name)
      ? ct(`uiFeature${name.charAt(0).toUpperCase()}${name.slice(1)}` as ConfiguratorKey)
      : name;
  return (
    <div className={styles.root} data-testid="sae-overlay-summary">
      {overlaySections(overlay, st, pick, featureLabel).map((section) => (
        <div key={section.key} data-testid={`sae-overlay-${section.key}`}>
          <Text weight="semibold">{section.title}</Text>
          {section.lines.length ? (
            <ul className={styles.list}>
              {section.lines.map((line, index) => (
                <li key={index}>
                  <Caption1>{line}</Caption1>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ))}
    </div>
  );
}
