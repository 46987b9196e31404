/**
 * The one RJSF field of the case form (`ui:field` of every property): renders the label, the
 * widget the registry selects, the null-flavor choice where the element allows one, and the
 * findings of the configuration's check at this field (the store's board, filled by
 * case-check.ts with the server's own validators and rules). The value lives here (local state)
 * and is written to the case store on each change; only this field re-renders while the user types.
 */
import { memo, useCallback, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { Dropdown, Field, Option, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import type { FieldProps } from '@rjsf/utils';
import type { LocalisedText } from '../i18n';
import { useCaseFormText } from './text';
import type { CaseFormKey } from './text';
import type { FieldDescriptor, Registration } from './registry';
import type { CaseStore } from './store';
import { keyToPointer } from './pointer';
import { CaseFieldAddon } from './field-addon';

/** What the group schema builder puts in `ui:options.case` for each property. */
export interface CaseFieldMeta {
  descriptor: FieldDescriptor;
  registration: Registration;
  label: LocalisedText;
  e2b?: string;
  nullFlavors: string[];
  required: boolean;
}

/** The RJSF form context of a case group form. */
export interface CaseFormContext {
  store: CaseStore;
  /** Concrete pointer of the object the form edits ('' for the document root). */
  base: string;
  readOnly: boolean;
}

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'flex-start' },
  // The control takes its grid cell's width (a report code or a site name reads in full).
  control: {
    flexGrow: 1,
    minWidth: 0,
    '& > .fui-Input, & > .fui-Dropdown, & > .fui-Combobox, & > .fui-Textarea': { width: '100%', minWidth: 0 },
  },
  flavor: { minWidth: '76px', width: '76px' },
  finding: { display: 'block' },
  e2b: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular, marginLeft: '4px' },
});

function isNullFlavored(value: unknown): value is { nullFlavor: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'nullFlavor' in value;
}

function CaseFieldImpl(props: FieldProps) {
  const styles = useStyles();
  const { tx, label: pickText } = useCaseFormText();
  const context = props.registry.formContext as CaseFormContext;
  const meta = (props.uiSchema?.['ui:options'] as { case: CaseFieldMeta }).case;
  const pointer = `${context.base}${keyToPointer(props.name)}`;
  const Addon = useContext(CaseFieldAddon);
  const parent = pointer.slice(0, pointer.lastIndexOf('/'));
  const { store } = context;
  const [value, setValue] = useState<unknown>(() => store.get(pointer));

  // Changes made elsewhere (a reload, a conflict resolution, a sibling set by a picker) reach the field.
  useEffect(() => {
    const listener = () => setValue(store.get(pointer));
    listener();
    return store.subscribe(pointer, listener);
  }, [store, pointer]);

  const change = useCallback(
    (next: unknown) => {
      setValue(next);
      store.set(pointer, next);
    },
    [store, pointer],
  );
  const sibling = useCallback((name: string) => store.get(`${parent}/${name}`), [store, parent]);
  const setSibling = useCallback(
    (name: string, next: unknown) => store.set(`${parent}/${name}`, next),
    [store, parent],
  );
  const caseValue = useCallback((at: string) => store.get(at), [store]);

  const subscribeFindings = useCallback(
    (listener: () => void) => store.findings.subscribe(pointer, listener),
    [store, pointer],
  );
  const findings = useSyncExternalStore(subscribeFindings, () => store.findings.at(pointer));

  const label = pickText(meta.label);
  const problem = findings.length > 0;
  const severity = findings.some((f) => f.severity === 'error') ? 'error' : 'warning';
  const message = problem ? (
    <span data-testid="field-findings">
      {findings.map((finding, i) => (
        <span
          key={i}
          data-finding={finding.path}
          data-rule={finding.ruleId}
          data-severity={finding.severity}
          className={styles.finding}
        >
          {pickText(finding.message)}
        </span>
      ))}
    </span>
  ) : undefined;
  const flavored = isNullFlavored(value);
  const Widget = meta.registration.component;
  const disabled = context.readOnly || Boolean(props.disabled) || Boolean(props.readonly);
  const id = `f-${pointer.slice(1).replace(/\//g, '-')}`;
  return (
    <Field
      label={{
        children: (
          <>
            {label}
            {meta.e2b ? <span className={styles.e2b}>{meta.e2b}</span> : null}
            {Addon ? (
              <Addon pointer={pointer} label={meta.label} {...(meta.e2b ? { e2b: meta.e2b } : {})} />
            ) : null}
          </>
        ),
        htmlFor: id,
      }}
      required={meta.required}
      validationState={problem ? severity : 'none'}
      validationMessage={message}
      data-pointer={pointer}
      data-e2b={meta.e2b}
    >
      <div className={styles.row}>
        <div className={styles.control}>
          {flavored ? (
            <Dropdown
              id={id}
              disabled
              value={`${value.nullFlavor} · ${tx(`nf_${value.nullFlavor}` as CaseFormKey)}`}
            />
          ) : (
            <Widget
              id={id}
              value={value}
              onChange={change}
              disabled={disabled}
              field={meta.descriptor}
              label={label}
              invalid={Boolean(problem)}
              sibling={sibling}
              setSibling={setSibling}
              caseValue={caseValue}
            />
          )}
        </div>
        {meta.nullFlavors.length > 0 ? (
          <Dropdown
            className={styles.flavor}
            aria-label={`${label} ${tx('nullFlavor')}`}
            data-testid={`${id}-nf`}
            disabled={disabled}
            placeholder={tx('nullFlavorShort')}
            value={flavored ? value.nullFlavor : ''}
            selectedOptions={flavored ? [value.nullFlavor] : []}
            onOptionSelect={(_: unknown, data: OptionOnSelectData) =>
              change(data.optionValue ? { nullFlavor: data.optionValue } : undefined)
            }
          >
            <Option value="">{tx('nullFlavorNone')}</Option>
            {meta.nullFlavors.map((flavor) => (
              <Option key={flavor} value={flavor} text={flavor}>
                {`${flavor} · ${tx(`nf_${flavor}` as CaseFormKey)}`}
              </Option>
            ))}
          </Dropdown>
        ) : null}
      </div>
    </Field>
  );
}

/** Re-rendered only when RJSF gives it another property (never on the form's other fields' edits). */
export const CaseField = memo(
  CaseFieldImpl,
  (a, b) => a.name === b.name && a.uiSchema === b.uiSchema && a.disabled === b.disabled,
);
