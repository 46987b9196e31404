/**
 * The case header's nullification and amendment reports (issue 19 item 6, E2B(R3) C.1.11.1 /
 * C.1.11.2): for a case some receiver has had, the expedited-report list's declared row actions
 * (schemas/ui/admin/expedited-reports.json, entity submission-correction) offered here too, each
 * asking the reason in the generic form. The planned batch is then named with a link to it.
 */
import { Suspense, lazy, useState } from 'react';
import type { MouseEvent } from 'react';
import { Button, Link, MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import expedited from '../../../../schemas/ui/admin/expedited-reports.json';
import type { FormDefinition, PageDefinition, RowActionDefinition } from '../../renderers/definition';
import { resolvePage } from '../../renderers/form/entity-form';
import { useLanguage } from '../../i18n/LanguageContext';
import { usePlanText } from '../submissions/text';
import type { CaseTransmission } from './case-api';

const FormDialog = lazy(() => import('../../renderers/form/FormDialog'));

/** A receiver has had the case once a transmission was sent (as the server's corrections.ts counts). */
const HAD = new Set(['sent', 'acknowledged', 'resubmitted', 'rejected', 'handled']);
const KEYS = ['nullify', 'amend'];

/** The declared actions, their forms resolved from the entity once. */
const ACTIONS: RowActionDefinition[] = resolvePage(expedited as unknown as PageDefinition)
  .lists.flatMap((list) => list.rowActions ?? [])
  .filter((action) => KEYS.includes(action.key) && action.form);

interface Planned {
  label: string;
  batchId: string;
  count: number;
}

export function CorrectionButtons(props: {
  caseId: string;
  transmission: CaseTransmission | null | undefined;
  can(permission: string): boolean;
  disabled: boolean;
}) {
  const { pick } = useLanguage();
  const st = usePlanText();
  const navigate = useNavigate();
  const [open, setOpen] = useState<RowActionDefinition | null>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const sent = props.transmission?.receivers.some((r) => HAD.has(r.status)) ?? false;
  const actions = ACTIONS.filter((action) => !action.permission || props.can(action.permission));
  if (!sent || !actions.length) return null;
  const definition = ({ form, method, path, permission }: RowActionDefinition): FormDefinition => ({
    ...form!,
    update: { method, path, permission },
  });
  const batchPath = (batchId: string) =>
    `/submittransfer/supervisionSubmit?batchId=${encodeURIComponent(batchId)}`;

  return (
    <>
      {actions.map((action) => (
        <Button
          key={action.key}
          data-testid={`case-correction-${action.key}`}
          disabled={props.disabled}
          onClick={() => setOpen(action)}
        >
          {pick(action.label)}
        </Button>
      ))}
      {open ? (
        <Suspense fallback={null}>
          <FormDialog
            definition={definition(open)}
            title={pick(open.label)}
            heading={pick(open.label)}
            mode="edit"
            row={{ caseId: props.caseId }}
            onClose={() => setOpen(null)}
            onSaved={(data) => {
              const plans = Array.isArray(data?.plans) ? data.plans : [];
              if (typeof data?.batchId === 'string')
                setPlanned({ label: pick(open.label), batchId: data.batchId, count: plans.length });
              setOpen(null);
            }}
          />
        </Suspense>
      ) : null}
      {planned ? (
        <MessageBar intent="success" data-testid="case-correction-planned" data-batch={planned.batchId}>
          <MessageBarBody>
            {st('uiCorrectionPlanned', { kind: planned.label, id: planned.batchId, count: planned.count })}{' '}
            <Link
              href={batchPath(planned.batchId)}
              data-testid="case-correction-batch"
              onClick={(event: MouseEvent) => {
                event.preventDefault();
                void navigate(batchPath(planned.batchId));
              }}
            >
              {st('uiOpenBatch')}
            </Link>
          </MessageBarBody>
        </MessageBar>
      ) : null}
    </>
  );
}
