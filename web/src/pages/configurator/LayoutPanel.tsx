/**
 * The form designer's layout: a case tab's groups with their fields in order (each saying which
 * layer declares it), moved up, down or to another group by `moveField` edits that the server
 * checks like every other edit; beside it, the tab rendered by the case page's own renderer
 * (CaseTabView) over sample data, rebuilt from the configuration after each accepted edit.
 */
import { useMemo, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Dropdown,
  Field,
  Option,
  Subtitle2,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { configuredTabs, fitsGroup, pathOfPointer } from '@pv/engine';
import type { CaseTabGroup, CaseTabs, ConfigEdit, SchemaSet } from '@pv/engine';
import { CaseStore, CaseTabView } from '../../case-form';
import { pickLabel } from '../../i18n';
import { sampleCase } from './sample';
import { useConfiguratorText } from './text';

const useStyles = makeStyles({
  columns: { display: 'grid', gridTemplateColumns: 'minmax(320px, 2fr) 3fr', gap: tokens.spacingHorizontalL },
  groups: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    maxHeight: '720px',
    overflowY: 'auto',
  },
  field: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  name: { flexGrow: 1, minWidth: '140px' },
  preview: { maxHeight: '720px', overflowY: 'auto' },
});

export interface ResolvedForDesigner {
  rootId: string;
  schemas: SchemaSet;
  layout: CaseTabs;
}

export function LayoutPanel({
  resolved,
  layerText,
  generation,
  onEdit,
}: {
  resolved: ResolvedForDesigner;
  /** Counts the configuration loads: the preview remounts over a fresh sample store each time. */
  generation: number;
  /** Which layer declares a field (and which changed it), by dotted path. */
  layerText: (path: string) => string;
  onEdit: (edit: ConfigEdit) => Promise<boolean>;
}) {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const tabs = useMemo(() => configuredTabs(resolved).tabs, [resolved]);
  const [tabId, setTabId] = useState(tabs[0]?.id ?? '');
  const tab = tabs.find((item) => item.id === tabId) ?? tabs[0];
  const allGroups = useMemo(() => tabs.flatMap((item) => item.groups), [tabs]);
  // A new store per configured tab: the preview shows the sample as the configuration now lays it out.
  const store = useMemo(() => (tab ? new CaseStore(sampleCase(tab)) : null), [tab]);
  if (!tab || !store) return null;

  const move = (pointer: string, group: CaseTabGroup, before?: string) =>
    void onEdit({
      op: 'moveField',
      path: pathOfPointer(pointer),
      group: group.id,
      ...(before ? { before: pathOfPointer(before) } : {}),
    });

  return (
    <div className={styles.columns} data-testid="layout-designer">
      <div className={styles.groups}>
        <Field label={ct('uiLayoutTab')}>
          <Dropdown
            value={pickLabel(language, tab.label)}
            selectedOptions={[tab.id]}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) => setTabId(data.optionValue ?? tab.id)}
            data-testid="layout-tab"
          >
            {tabs.map((item) => (
              <Option key={item.id} value={item.id} text={pickLabel(language, item.label)}>
                {pickLabel(language, item.label)}
              </Option>
            ))}
          </Dropdown>
        </Field>
        {tab.groups.map((group) => (
          <Card key={group.id} data-testid={`layout-group-${group.id}`}>
            <Subtitle2>
              {pickLabel(language, group.title)} ({group.id})
            </Subtitle2>
            {group.fields.map((pointer, index) => {
              const schema = group.properties?.[pointer];
              const label = schema?.['x-label'] as { zh: string; en: string } | undefined;
              const path = pathOfPointer(pointer);
              const targets = allGroups.filter((other) => other.id !== group.id && fitsGroup(other, pointer));
              return (
                <div key={pointer} className={styles.field} data-testid={`layout-field-${path}`}>
                  <Text className={styles.name}>
                    {label ? pickLabel(language, label) : path}
                    {typeof schema?.['x-e2b'] === 'string' ? ` (${schema['x-e2b']})` : ''}
                  </Text>
                  <Badge appearance="tint" data-testid={`layer-${path}`}>
                    {layerText(path)}
                  </Badge>
                  <Button
                    size="small"
                    disabled={index === 0}
                    onClick={() => move(pointer, group, group.fields[index - 1])}
                    data-testid={`up-${path}`}
                    aria-label={ct('uiMoveUp')}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    disabled={index === group.fields.length - 1}
                    onClick={() => move(pointer, group, group.fields[index + 2])}
                    data-testid={`down-${path}`}
                    aria-label={ct('uiMoveDown')}
                  >
                    ↓
                  </Button>
                  {targets.length > 0 && (
                    <Dropdown
                      size="small"
                      placeholder={ct('uiMoveTo')}
                      selectedOptions={[]}
                      onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
                        const target = allGroups.find((other) => other.id === data.optionValue);
                        if (target) move(pointer, target);
                      }}
                      data-testid={`move-${path}`}
                    >
                      {targets.map((other) => (
                        <Option key={other.id} value={other.id} text={pickLabel(language, other.title)}>
                          {`${pickLabel(language, other.title)} (${other.id})`}
                        </Option>
                      ))}
                    </Dropdown>
                  )}
                </div>
              );
            })}
          </Card>
        ))}
      </div>
      <div className={styles.preview} data-testid="form-preview">
        <Subtitle2>{ct('uiPreview')}</Subtitle2>
        <CaseTabView key={`${tab.id}-${generation}`} tab={tab} store={store} readOnly={false} />
      </div>
    </div>
  );
}
