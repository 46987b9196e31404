/**
 * Workflow designer: the project's case workflow as a diagram (nodes in their declared order,
 * submit transitions as arrows), with the edits a configurator makes: add a review node after a
 * node, remove a node, change who may act at a node. The edited definition is sent as a merge
 * patch; the server refuses an unreachable node or a node with no way to regulatory submission.
 */
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Field,
  Input,
  MessageBar,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { workflowOverrideOf, caseWorkflow } from '@pv/engine';
import type { WorkflowDefinition } from '@pv/engine';
import { pickLabel } from '../../i18n';
import { configurator, messageOf } from './api';
import { useConfiguratorText } from './text';
import { nowMs } from '../../clock';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, alignItems: 'flex-end' },
  node: {
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingVerticalS,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
});

const BOX_W = 150;
const BOX_H = 40;
const GAP = 40;

/** The diagram: nodes left to right in declared order, submit arrows above, back arrows dashed below. */
function Diagram({ definition }: { definition: WorkflowDefinition }) {
  const { language } = useConfiguratorText();
  const x = (id: string) => definition.order.indexOf(id) * (BOX_W + GAP) + 10;
  const width = definition.order.length * (BOX_W + GAP) + 20;
  const arrows: { from: string; to: string; back: boolean }[] = [];
  for (const [id, node] of Object.entries(definition.nodes))
    for (const [key, targets] of Object.entries(node.transitions))
      for (const target of targets)
        if (definition.nodes[target])
          arrows.push({ from: id, to: target, back: key === 'back' || key.includes(':') });
  const top = 70;
  return (
    <svg width={width} height={top + BOX_H + 90} role="img" data-testid="workflow-diagram">
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="6"
          markerHeight="6"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" fill={tokens.colorNeutralForeground2} />
        </marker>
      </defs>
      {arrows.map(({ from, to, back }, index) => {
        const x1 = x(from) + BOX_W / 2;
        const x2 = x(to) + BOX_W / 2;
        const lift = 12 + (Math.abs(x2 - x1) / (BOX_W + GAP)) * 12;
        const y = back ? top + BOX_H : top;
        const cy = back ? y + lift : y - lift;
        return (
          <path
            key={index}
            d={`M${x1},${y} Q${(x1 + x2) / 2},${cy} ${x2},${y}`}
            fill="none"
            stroke={back ? tokens.colorNeutralStroke1 : tokens.colorBrandStroke1}
            strokeDasharray={back ? '4 3' : undefined}
            markerEnd="url(#arrow)"
          />
        );
      })}
      {definition.order.map((id) => (
        <g key={id} data-testid={`diagram-node-${id}`}>
          <rect
            x={x(id)}
            y={top}
            width={BOX_W}
            height={BOX_H}
            rx={6}
            fill={
              definition.nodes[id]?.phase === definition.goalPhase
                ? tokens.colorPaletteGreenBackground2
                : tokens.colorNeutralBackground3
            }
            stroke={tokens.colorNeutralStroke1}
          />
          <text x={x(id) + BOX_W / 2} y={top + BOX_H / 2 + 4} textAnchor="middle" fontSize="12">
            {definition.nodes[id] ? pickLabel(language, definition.nodes[id]!.label) : id}
          </text>
        </g>
      ))}
    </svg>
  );
}

let counter = 0;

export function WorkflowPanel({
  projectId,
  definition: saved,
  onSaved,
}: {
  projectId: string;
  definition: WorkflowDefinition;
  onSaved: () => void;
}) {
  const styles = useStyles();
  const { ct, language } = useConfiguratorText();
  const [definition, setDefinition] = useState<WorkflowDefinition>(() => structuredClone(saved));
  const [names, setNames] = useState({ zh: '', en: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const edit = (change: (draft: WorkflowDefinition) => void) => {
    const draft = structuredClone(definition);
    change(draft);
    setDefinition(draft);
    setDone(false);
  };

  /** Inserts a node after `after`: it takes over after's submit targets, after submits to it. */
  const addAfter = (after: string) =>
    edit((draft) => {
      const source = draft.nodes[after]!;
      const id = `review${nowMs().toString(36)}${counter++}`;
      draft.nodes[id] = {
        label: { zh: names.zh || `${source.label.zh}（二）`, en: names.en || `${source.label.en} (2)` },
        ...(source.phase ? { phase: source.phase } : {}),
        transitions: {
          submit: [...(source.transitions.submit ?? [])],
          back: [after, ...(source.transitions.back ?? [])],
        },
      };
      source.transitions.submit = [id];
      draft.order.splice(draft.order.indexOf(after) + 1, 0, id);
      if (source.phase) draft.phases[source.phase]?.nodes.push(id);
    });

  /** Removes a node; whatever led to it now leads where it led. */
  const remove = (id: string) =>
    edit((draft) => {
      const onward = draft.nodes[id]?.transitions.submit ?? [];
      delete draft.nodes[id];
      draft.order = draft.order.filter((item) => item !== id);
      for (const phase of Object.values(draft.phases))
        phase.nodes = phase.nodes.filter((item) => item !== id);
      for (const node of Object.values(draft.nodes))
        for (const [key, targets] of Object.entries(node.transitions)) {
          if (!targets.includes(id)) continue;
          const next = targets.filter((item) => item !== id);
          if (key === 'submit') for (const target of onward) if (!next.includes(target)) next.push(target);
          node.transitions[key] = next;
        }
    });

  const save = async (override: unknown) => {
    setError(null);
    try {
      await configurator.saveWorkflow(projectId, override);
      setDone(true);
      onSaved();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  return (
    <div className={styles.box}>
      <Diagram definition={definition} />
      <div className={styles.row}>
        <Field label={ct('uiNewNodeZh')}>
          <Input
            value={names.zh}
            onChange={(_, data) => setNames({ ...names, zh: data.value })}
            data-testid="new-node-zh"
          />
        </Field>
        <Field label={ct('uiNewNodeEn')}>
          <Input
            value={names.en}
            onChange={(_, data) => setNames({ ...names, en: data.value })}
            data-testid="new-node-en"
          />
        </Field>
      </div>
      {definition.order.map((id) => {
        const node = definition.nodes[id];
        if (!node) return null;
        return (
          <div key={id} className={styles.node} data-testid={`node-${id}`}>
            <Text weight="semibold">{pickLabel(language, node.label)}</Text>
            <div className={styles.row} data-testid={`targets-${id}`}>
              <Text size={200}>{ct('uiTransitions')}:</Text>
              {definition.order
                .filter((target) => target !== id)
                .map((target) => (
                  <Checkbox
                    key={target}
                    label={pickLabel(language, definition.nodes[target]?.label ?? { zh: target, en: target })}
                    checked={(node.transitions.submit ?? []).includes(target)}
                    onChange={(_, data) =>
                      edit((draft) => {
                        const current = draft.nodes[id]!.transitions.submit ?? [];
                        const next = data.checked
                          ? [...current, target]
                          : current.filter((item) => item !== target);
                        if (next.length > 0) draft.nodes[id]!.transitions.submit = next;
                        else delete draft.nodes[id]!.transitions.submit;
                      })
                    }
                    data-testid={`target-${id}-${target}`}
                  />
                ))}
            </div>
            <div className={styles.row}>
              <Field label={ct('uiNodePermission')}>
                <Input
                  value={node.permission ?? ''}
                  onChange={(_, data) =>
                    edit((draft) => {
                      if (data.value) draft.nodes[id]!.permission = data.value;
                      else delete draft.nodes[id]!.permission;
                    })
                  }
                />
              </Field>
              {node.phase !== definition.goalPhase && (
                <Button onClick={() => addAfter(id)} data-testid={`add-after-${id}`}>
                  {ct('uiAddReviewAfter')}
                </Button>
              )}
              {id !== definition.initial && (
                <Button onClick={() => remove(id)} data-testid={`remove-${id}`}>
                  {ct('uiRemoveNode')}
                </Button>
              )}
            </div>
          </div>
        );
      })}
      {error && (
        <MessageBar intent="error" data-testid="workflow-error">
          {error}
        </MessageBar>
      )}
      {done && <MessageBar intent="success">{ct('uiSaved')}</MessageBar>}
      <div className={styles.row}>
        <Button
          appearance="primary"
          onClick={() => void save(workflowOverrideOf(caseWorkflow, definition))}
          data-testid="save-workflow"
        >
          {ct('uiSave')}
        </Button>
        <Button
          onClick={() => {
            setDefinition(structuredClone(caseWorkflow));
            void save(null);
          }}
        >
          {ct('uiReset')}
        </Button>
      </div>
    </div>
  );
}
