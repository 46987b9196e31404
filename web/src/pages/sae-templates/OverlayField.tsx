/**
 * RJSF field `ui:field: "saeOverlay"`: a project SAE template's configuration overlay edited as
 * JSON, with its contents listed as readable lines. Text that is not JSON (or not an overlay) is
 * kept as typed and handed to the form as text, so the form's schema check refuses to save it; the
 * server checks a well-formed overlay with the configurator's own checks and the form shows its reason.
 */
import { useState } from 'react';
import { Button, Field, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import type { FieldProps } from '@rjsf/utils';
import { OverlaySummary } from './OverlaySummary';
import { isOverlay } from './summary';
import { useSaeText } from './text';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  code: { fontFamily: tokens.fontFamilyMonospace, minHeight: '240px' },
});

const pretty = (value: unknown) => JSON.stringify(value ?? { edits: [] }, null, 2);

export function SaeOverlayField(props: FieldProps) {
  const styles = useStyles();
  const { st } = useSaeText();
  const [text, setText] = useState(() =>
    typeof props.formData === 'string' ? props.formData : pretty(props.formData),
  );
  let parsed: unknown = undefined;
  let problem: string | null = null;
  try {
    parsed = JSON.parse(text);
    if (!isOverlay(parsed)) problem = st('uiJsonNotObject');
  } catch (error) {
    problem = st('uiJsonInvalid', { reason: (error as Error).message });
  }

  const change = (next: string) => {
    setText(next);
    try {
      const value: unknown = JSON.parse(next);
      props.onChange(isOverlay(value) ? value : next, props.fieldPathId.path);
    } catch {
      props.onChange(next, props.fieldPathId.path);
    }
  };

  return (
    <div className={styles.root}>
      <Field
        label={props.schema.title ?? props.name}
        required={props.required}
        hint={st('uiJsonHint')}
        validationState={problem ? 'error' : 'none'}
        validationMessage={problem ?? undefined}
      >
        <Textarea
          className={styles.code}
          value={text}
          resize="vertical"
          disabled={props.disabled || props.readonly}
          onChange={(_, data) => change(data.value)}
          data-testid="sae-overlay-json"
        />
      </Field>
      <div>
        <Button
          size="small"
          disabled={Boolean(problem) || props.disabled || props.readonly}
          onClick={() => change(pretty(parsed))}
          data-testid="sae-overlay-format"
        >
          {st('uiJsonFormat')}
        </Button>
      </div>
      {!problem && isOverlay(parsed) ? <OverlaySummary overlay={parsed} /> : null}
    </div>
  );
}
