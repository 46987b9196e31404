/**
 * The case's study project (/report/studyProjectId) and study site (/report/hospitalId) as pickers:
 * the projects the user works in and the chosen project's sites, shown by code and name. A case's
 * project is set when it is registered and never moves (the server refuses it), so the project
 * picker only chooses for a case that has none.
 */
import { Dropdown, Option } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import { nameText } from '../../display/names';
import { useNames } from '../../display/useNames';
import { useProjectChoices } from '../../display/useProjectChoices';
import type { CaseWidgetProps } from '../registry';
import { useCaseFormText } from '../text';

export const PROJECT_POINTER = '/report/studyProjectId';
export const SITE_POINTER = '/report/hospitalId';

interface PickerProps {
  id?: string;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
  label: string;
  invalid?: boolean;
  testId?: string;
}

/** A project a picker offers. */
export interface ProjectPickerChoice {
  id: string;
  code: string;
  name: string;
  nameEn?: string;
}

/**
 * The projects the user works in, `code name` in the display language; or the `choices` given
 * (a page offering only the projects where the user holds its permission).
 */
export function ProjectPicker({
  id,
  value,
  onChange,
  disabled,
  label,
  invalid,
  testId,
  choices: given,
}: PickerProps & { choices?: ProjectPickerChoice[] }) {
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const { name } = useNames();
  const worksIn = useProjectChoices();
  const choices: ProjectPickerChoice[] | null = given ?? worksIn;
  const text = (choice: { code: string; name: string; nameEn?: string }) =>
    `${choice.code} ${pick({ zh: choice.name, en: choice.nameEn || choice.name })}`;
  const current = choices?.find((choice) => choice.id === value);
  return (
    <Dropdown
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled}
      data-testid={testId}
      clearable={!disabled}
      placeholder={tx('chooseProject')}
      value={current ? text(current) : value ? name('project', value) : ''}
      selectedOptions={value ? [value] : []}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) => onChange(data.optionValue ?? '')}
    >
      {(choices ?? []).map((choice) => (
        <Option key={choice.id} value={choice.id} text={text(choice)} data-value={choice.id}>
          {text(choice)}
        </Option>
      ))}
    </Dropdown>
  );
}

export function ProjectWidget({ id, value, onChange, disabled, label, invalid }: CaseWidgetProps) {
  const project = typeof value === 'string' ? value : '';
  return (
    <ProjectPicker
      id={id}
      value={project}
      onChange={(next) => onChange(next || undefined)}
      // Registered cases keep their project.
      disabled={disabled || project !== ''}
      label={label}
      invalid={invalid}
      testId={`${id}-project`}
    />
  );
}

/** The study sites of a project. */
export function SitePicker({
  id,
  projectId,
  value,
  onChange,
  disabled,
  label,
  invalid,
  testId,
}: PickerProps & { projectId: unknown }) {
  const { pick } = useLanguage();
  const { tx } = useCaseFormText();
  const { name } = useNames();
  const choices = useProjectChoices();
  const sites = choices?.find((choice) => choice.id === projectId)?.sites ?? [];
  const current = sites.find((s) => s.id === value);
  return (
    <Dropdown
      id={id}
      aria-label={label}
      aria-invalid={invalid}
      disabled={disabled || !projectId}
      data-testid={testId}
      clearable
      placeholder={tx('chooseSite')}
      value={current ? nameText('site', current, pick) : value ? name('site', value) : ''}
      selectedOptions={value ? [value] : []}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) => onChange(data.optionValue ?? '')}
    >
      {sites.map((s) => (
        <Option key={s.id} value={s.id} text={nameText('site', s, pick)} data-value={s.id}>
          {nameText('site', s, pick)}
        </Option>
      ))}
    </Dropdown>
  );
}

/** The sites of the case's project. */
export function SiteWidget({ id, value, onChange, disabled, label, invalid, caseValue }: CaseWidgetProps) {
  return (
    <SitePicker
      id={id}
      projectId={caseValue?.(PROJECT_POINTER)}
      value={typeof value === 'string' ? value : ''}
      onChange={(next) => onChange(next || undefined)}
      disabled={disabled}
      label={label}
      invalid={invalid}
      testId={`${id}-site`}
    />
  );
}
