/**
 * The dialog of a workflow action (submit, back, challenge, approve plan, mark completed, follow-up):
 * what the workflow says the action needs - the next node, the next user, an option, an opinion,
 * the electronic-signature password - and nothing else.
 */
import { useEffect, useState } from 'react';
import type { ChangeEvent } from 'react';
import { Dropdown, Field, Input, Option, Textarea } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { caseWorkflow } from '@pv/engine';
import type { LocalisedText } from '../../i18n';
import { api } from '../../app/api';
import { useLanguage } from '../../i18n/LanguageContext';
import { ConfirmDialog, useCaseFormText } from '../../case-form';
import type { CaseFormKey } from '../../case-form';
import type { AvailableAction } from './case-api';
import { IsoDateInput } from '../../display/IsoDateInput';

interface UserRow {
  /** The account id: what the workflow records as the next processer. */
  userId: string;
  name: string;
  account?: string;
}

export function ActionDialog({
  action,
  nodeLabels,
  title,
  opinionLabel,
  onDone,
}: {
  action: AvailableAction | null;
  /** For actions the workflow does not declare (freeze, unfreeze): the dialog title and opinion label. */
  title?: string;
  opinionLabel?: string;
  /** The project's node labels (GET /cases/:id); the base workflow's otherwise. */
  nodeLabels?: Record<string, LocalisedText | null>;
  onDone: (body: Record<string, unknown> | null) => void;
}) {
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const [toNode, setToNode] = useState('');
  const [userId, setUserId] = useState('');
  const [option, setOption] = useState('');
  const [opinion, setOpinion] = useState('');
  const [password, setPassword] = useState('');
  const [followUpDate, setFollowUpDate] = useState('');
  const [users, setUsers] = useState<UserRow[] | null>(null);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    if (!action) return;
    setToNode(action.targets.length === 1 ? action.targets[0]! : '');
    setUserId('');
    setOption('');
    setOpinion('');
    setPassword('');
    setFollowUpDate('');
    setProblem('');
    if (action.needsUser && users === null) {
      // The tenant's enabled users; without the right to list them the user id is typed.
      api
        .request<{ items: UserRow[] }>('/users', { params: { state: 'enabled', size: 100 }, silent: true })
        .then(
          (answer) => setUsers(answer.items),
          () => setUsers([]),
        );
    }
  }, [action, users]);

  if (!action) return null;
  const isFollowUp = action.action === 'followUp';
  const nodeLabel = (id: string) => {
    const label =
      nodeLabels?.[id] ?? (caseWorkflow.nodes[id] as { label?: LocalisedText } | undefined)?.label;
    return label ? pick(label) : id;
  };
  const actionLabel = (
    caseWorkflow.actions[action.action] as { label?: { zh: string; en: string } } | undefined
  )?.label;

  const submit = () => {
    if (action.targets.length > 1 && !toNode) return setProblem(tx('chooseNode'));
    if (action.needsUser && !userId) return setProblem(tx('chooseUser'));
    if (action.option && !option) return setProblem(tx('chooseOption'));
    if ((action.needsOpinion || isFollowUp) && !opinion.trim()) return setProblem(tx('opinionRequired'));
    if (action.signature && !password) return setProblem(tx('passwordRequired'));
    if (isFollowUp && !/^\d{4}-\d{2}-\d{2}$/.test(followUpDate))
      return setProblem(tx('followUpDateRequired'));
    const body: Record<string, unknown> = {};
    if (toNode) body.toNode = toNode;
    if (userId) body.userId = userId;
    if (option) body[action.option!.name] = option;
    if (isFollowUp) {
      body.reason = opinion.trim();
      // Shown in ISO order; the case keeps the E2B form (C.1.5, CCYYMMDD).
      body.latestInformationDate = followUpDate.replace(/-/g, '');
    } else if (opinion.trim()) body.opinion = opinion.trim();
    if (password) body.password = password;
    onDone(body);
  };

  return (
    <ConfirmDialog
      open
      title={title ?? (actionLabel ? pick(actionLabel) : action.action)}
      testId="action-dialog"
      buttons={[
        { value: 'ok', label: tx('confirm'), primary: true },
        { value: 'cancel', label: tx('cancel') },
      ]}
      onAnswer={(value) => (value === 'ok' ? submit() : onDone(null))}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        {action.targets.length > 0 ? (
          <Field label={tx('nextNode')} required>
            <Dropdown
              data-testid="action-node"
              value={toNode ? nodeLabel(toNode) : ''}
              selectedOptions={toNode ? [toNode] : []}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => setToNode(data.optionValue ?? '')}
            >
              {action.targets.map((node) => (
                <Option key={node} value={node}>
                  {nodeLabel(node)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        ) : null}
        {action.needsUser ? (
          <Field label={tx('nextUser')} required>
            {users && users.length > 0 ? (
              <Dropdown
                data-testid="action-user"
                value={users.find((u) => u.userId === userId)?.name ?? ''}
                selectedOptions={userId ? [userId] : []}
                onOptionSelect={(_: unknown, data: OptionOnSelectData) => setUserId(data.optionValue ?? '')}
              >
                {users.map((user) => (
                  <Option key={user.userId} value={user.userId}>
                    {user.account ? `${user.name} (${user.account})` : user.name}
                  </Option>
                ))}
              </Dropdown>
            ) : (
              <Input
                data-testid="action-user-id"
                value={userId}
                onChange={(_, d) => setUserId(d.value.trim())}
              />
            )}
          </Field>
        ) : null}
        {action.option ? (
          <Field label={tx(`option_${action.option.name}` as CaseFormKey)} required>
            <Dropdown
              data-testid="action-option"
              value={option ? tx(`optionValue_${option}` as CaseFormKey) : ''}
              selectedOptions={option ? [option] : []}
              onOptionSelect={(_: unknown, data: OptionOnSelectData) => setOption(data.optionValue ?? '')}
            >
              {action.option.values.map((value) => (
                <Option key={value} value={value}>
                  {tx(`optionValue_${value}` as CaseFormKey)}
                </Option>
              ))}
            </Dropdown>
          </Field>
        ) : null}
        {isFollowUp ? (
          <Field label={tx('followUpDate')} required>
            <IsoDateInput
              testId="action-followup-date"
              ariaLabel={tx('followUpDate')}
              value={followUpDate}
              onChange={setFollowUpDate}
            />
          </Field>
        ) : null}
        <Field
          label={opinionLabel ?? tx(isFollowUp ? 'followUpReason' : 'opinion')}
          required={action.needsOpinion || isFollowUp}
        >
          <Textarea
            data-testid="action-opinion"
            value={opinion}
            onChange={(event: ChangeEvent<HTMLTextAreaElement>) => setOpinion(event.target.value)}
          />
        </Field>
        {action.signature ? (
          <Field label={tx('signaturePassword')} required hint={tx('signatureHint')}>
            <Input
              data-testid="action-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(_, d) => setPassword(d.value)}
            />
          </Field>
        ) : null}
        {problem ? (
          <div role="alert" data-testid="action-problem">
            {problem}
          </div>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
