/**
 * A project's configuration as it stands: the feature switches published (PRO) and drafted (UAT),
 * read from the configurator; editing happens in template configuration, opened on this project.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { FEATURE_SWITCH_NAMES } from '@pv/engine';
import type { FeatureSwitches } from '@pv/engine';
import { configurator } from '../configurator/api';
import type { ProjectConfiguration } from '../configurator/api';
import type { ConfiguratorKey } from '../configurator/text';
import { useConfiguratorText } from '../configurator/text';
import { useProjectsText } from './text';
import { DataTable } from '../../renderers/table/DataTable';
import { ApplySaeTemplate } from '../sae-templates/ApplySaeTemplate';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '900px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function ConfigPanel({ projectId }: { projectId: string }) {
  const styles = useStyles();
  const { pt } = useProjectsText();
  const { ct } = useConfiguratorText();
  const navigate = useNavigate();
  const [loaded, setLoaded] = useState<{ pro: ProjectConfiguration; uat: ProjectConfiguration } | null>(null);
  const [failed, setFailed] = useState(false);
  // Bumped when an SAE template is applied: the UAT column shows what the draft now holds.
  const [applied, setApplied] = useState(0);

  useEffect(() => {
    Promise.all([configurator.load(projectId, 'PRO'), configurator.load(projectId, 'UAT')]).then(
      ([pro, uat]) => setLoaded({ pro, uat }),
      () => setFailed(true),
    );
  }, [projectId, applied]);

  const value = (features: FeatureSwitches, name: keyof FeatureSwitches): string => {
    const v = features[name];
    if (typeof v === 'boolean') return v ? pt('uiOn') : pt('uiOff');
    return v === null ? pt('uiUnlimited') : pt('uiHours', { hours: v });
  };
  const label = (name: string) =>
    ct(`uiFeature${name.charAt(0).toUpperCase()}${name.slice(1)}` as ConfiguratorKey);

  return (
    <div className={styles.root} data-testid="project-config">
      <Text className={styles.muted}>{pt('uiConfigHint')}</Text>
      <div>
        <Button
          appearance="primary"
          onClick={() =>
            void navigate(
              `/authoritymanagement/templateConfiguration?projectId=${encodeURIComponent(projectId)}`,
            )
          }
          data-testid="project-open-configurator"
        >
          {pt('uiOpenConfigurator')}
        </Button>{' '}
        <ApplySaeTemplate projectId={projectId} onApplied={() => setApplied((n) => n + 1)} />
      </div>
      {loaded ? (
        <DataTable<(typeof FEATURE_SWITCH_NAMES)[number]>
          id="project-config"
          ariaLabel={pt('uiFeatures')}
          rows={[...FEATURE_SWITCH_NAMES]}
          rowKey={(name) => name}
          rowProps={(name) => ({ 'data-testid': `feature-${name}` })}
          serialOffset={false}
          empty=""
          columns={[
            { key: 'feature', label: pt('uiFeatures'), width: 280, text: label },
            {
              key: 'published',
              label: pt('uiPublished', { version: loaded.pro.version }),
              width: 160,
              text: (name) => value(loaded.pro.features, name),
            },
            {
              key: 'draft',
              label: pt('uiDraft'),
              width: 160,
              text: (name) => value(loaded.uat.features, name),
            },
          ]}
        />
      ) : failed ? null : (
        <Spinner size="small" />
      )}
    </div>
  );
}
