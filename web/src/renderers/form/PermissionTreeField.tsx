/**
 * RJSF field `ui:field: "permissionTree"` for a role's permissions (an array of permission
 * identifiers): the menu tree of the area named in `ui:options.area` (tenant or operator) with
 * a menu/button tag per item. Items the editing user does not hold are shown but cannot be
 * ticked (the server refuses to grant them).
 */
import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Checkbox, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { FieldProps } from '@rjsf/utils';
import { api } from '../../app/api';
import { IDENTITY_PATHS } from '../../api/identity';
import { useLanguage } from '../../i18n/LanguageContext';
import type { MenuEntry, PermissionNode } from './permission-tree';
import { parentsOf, permissionTree, stateOf, toggle } from './permission-tree';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  tree: {
    maxHeight: '40vh',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingVerticalXS,
  },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  twisty: { minWidth: '24px', width: '24px' },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  ungrantable: { color: tokens.colorNeutralForegroundDisabled },
});

export function PermissionTreeField(props: FieldProps<string[]>) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const area = String((props.uiSchema?.['ui:options'] as { area?: string } | undefined)?.area ?? 'tenant');
  const [entries, setEntries] = useState<MenuEntry[] | null>(null);
  const [open, setOpen] = useState<Set<string>>(new Set());
  useEffect(() => {
    api.request<MenuEntry[]>(IDENTITY_PATHS.menus).then(setEntries, () => setEntries([]));
  }, []);
  const roots = useMemo(() => (entries ? permissionTree(entries, area) : []), [entries, area]);
  const parents = useMemo(() => parentsOf(roots), [roots]);
  const grantable = useMemo(() => {
    const allowed = new Set(entries?.filter((e) => e.granted).map((e) => e.id));
    return (id: string) => allowed.has(id);
  }, [entries]);
  const value = props.formData ?? [];
  const selected = new Set(value);
  const locked = Boolean(props.disabled || props.readonly);

  const render = (node: PermissionNode, depth: number) => {
    const expanded = open.has(node.id);
    return (
      <div key={node.id}>
        <div
          className={styles.row}
          style={{ paddingLeft: `${depth * 20}px` }}
          data-testid={`perm-${node.id}`}
        >
          {node.children.length ? (
            <Button
              size="small"
              appearance="transparent"
              className={styles.twisty}
              aria-expanded={expanded}
              aria-label={pick(node.label)}
              onClick={() =>
                setOpen((o) => {
                  const next = new Set(o);
                  if (expanded) next.delete(node.id);
                  else next.add(node.id);
                  return next;
                })
              }
            >
              {expanded ? '▾' : '▸'}
            </Button>
          ) : (
            <span className={styles.twisty} />
          )}
          <Checkbox
            checked={stateOf(node, selected)}
            disabled={locked || !node.grantable}
            aria-label={pick(node.label)}
            onChange={(_, d) =>
              props.onChange(
                toggle(value, node, d.checked === true, parents, grantable),
                props.fieldPathId.path,
              )
            }
          />
          {/* The label stays outside the checkbox: inside RJSF's required field it would carry the required mark. */}
          <Text className={node.grantable ? undefined : styles.ungrantable}>{pick(node.label)}</Text>
          <Badge size="small" appearance="tint" color={node.type === 'menu' ? 'brand' : 'informative'}>
            {t(node.type === 'menu' ? 'permissions.menu' : 'permissions.button')}
          </Badge>
        </div>
        {expanded ? node.children.map((child) => render(child, depth + 1)) : null}
      </div>
    );
  };

  return (
    <div className={styles.root} data-testid="permission-tree">
      <div className={styles.toolbar}>
        <Text weight="semibold">{props.schema.title ?? t('permissions.title')}</Text>
        <Text size={200}>{t('permissions.count', { count: value.length })}</Text>
        <Button size="small" onClick={() => setOpen(new Set(parents.values()))}>
          {t('permissions.expandAll')}
        </Button>
        <Button size="small" onClick={() => setOpen(new Set())}>
          {t('permissions.collapseAll')}
        </Button>
      </div>
      <div className={styles.tree}>
        {entries === null ? <Spinner size="tiny" /> : roots.map((n) => render(n, 0))}
      </div>
    </div>
  );
}
