/**
 * One RJSF form (Fluent v9 theme) for one layout group at one concrete place in the case. The
 * form never holds the values: each CaseField reads and writes the case store, so a keystroke
 * re-renders one field, not the form.
 */
import { memo, useMemo } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import Form from '@rjsf/fluentui-rc';
// These forms hold no values (each CaseField reads and writes the store), so RJSF never validates
// with this; the case is checked by the configuration's served validators (case-check.ts). AJV's
// run-time code generation is refused by the page's CSP (no 'unsafe-eval'): see cspValidator.ts.
import { cspValidator as validator } from '../renderers/form/cspValidator';
import type { ObjectFieldTemplateProps, RegistryFieldsType } from '@rjsf/utils';
import type { CaseTabGroup } from '@pv/engine';
import { CaseField } from './CaseField';
import type { CaseFormContext } from './CaseField';
import { groupSchema } from './group-schema';
import type { CaseStore } from './store';
import { TextPair, textPairs } from './TextPair';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    alignItems: 'start',
  },
  wide: { gridColumn: '1 / -1' },
  // A keystroke re-lays out and repaints its own field only.
  cell: { contain: 'content', minWidth: 0 },
});

const EMPTY = {};
const fields: RegistryFieldsType = { CaseField };

/** Lays the group's fields out in the layout's columns; native/translated text pairs side by side. */
function GridTemplate(props: ObjectFieldTemplateProps) {
  const styles = useStyles();
  const columns = Number((props.uiSchema?.['ui:options'] as { columns?: number } | undefined)?.columns ?? 3);
  const names = props.properties.map((p) => p.name);
  const pairs = textPairs(names);
  const inPair = new Set(
    pairs.flatMap((pair) => [pair.native, pair.language, pair.translation].filter(Boolean)),
  );
  const byName = new Map(props.properties.map((p) => [p.name, p.content]));
  return (
    <div className={styles.grid} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
      {pairs.map((pair) => (
        <div key={pair.native} className={styles.wide}>
          <TextPair
            native={byName.get(pair.native)}
            language={pair.language ? byName.get(pair.language) : undefined}
            translation={pair.translation ? byName.get(pair.translation) : undefined}
          />
        </div>
      ))}
      {props.properties
        .filter((p) => !inPair.has(p.name) && !p.hidden)
        .map((p) => (
          <div key={p.name} className={styles.cell}>
            {p.content}
          </div>
        ))}
    </div>
  );
}

const templates = { ObjectFieldTemplate: GridTemplate };

export interface GroupFormProps {
  group: CaseTabGroup;
  /** Concrete pointer of the edited object (`/drugs/3`), '' for the document root. */
  base: string;
  store: CaseStore;
  readOnly: boolean;
}

function GroupFormImpl({ group, base, store, readOnly }: GroupFormProps) {
  const built = groupSchema(group, 'CaseField');
  const context = useMemo<CaseFormContext>(() => ({ store, base, readOnly }), [store, base, readOnly]);
  return (
    <div data-group={group.id} data-base={base}>
      <Form
        schema={built.schema}
        uiSchema={built.uiSchema}
        formData={EMPTY}
        formContext={context}
        validator={validator}
        fields={fields}
        templates={templates}
        noHtml5Validate
        showErrorList={false}
        tagName="div"
      />
    </div>
  );
}

export const GroupForm = memo(GroupFormImpl);
