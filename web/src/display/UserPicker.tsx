/**
 * A user chosen by name among those working in the caller's projects (GET /api/names/users): a
 * list's handler filter keeps the user's id, the box shows the name and narrows as one types.
 */
import { useEffect, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { Combobox, Option } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { api } from '../app/api';
import { useLanguage } from '../i18n/LanguageContext';
import type { DisplayName } from './names';
import { useNames } from './useNames';

export interface UserChoice extends DisplayName {
  id: string;
}

let cached: { path: string; choices: Promise<UserChoice[]> } | null = null;

/** The users a picker offers, read once per page and shared by its pickers; null while loading. */
export function useUserChoices(): UserChoice[] | null {
  const { pathname } = useLocation();
  const [choices, setChoices] = useState<UserChoice[] | null>(null);
  useEffect(() => {
    if (cached?.path !== pathname)
      cached = {
        path: pathname,
        choices: api.request<UserChoice[]>('/names/users', { silent: true }).catch(() => []),
      };
    let live = true;
    void cached.choices.then((list) => live && setChoices(list));
    return () => {
      live = false;
    };
  }, [pathname]);
  return choices;
}

export function UserPicker({
  value,
  onChange,
  label,
  testId,
}: {
  value: string;
  onChange(id: string): void;
  label: string;
  testId?: string;
}) {
  const { pick } = useLanguage();
  const { name } = useNames();
  const choices = useUserChoices();
  const text = (user: DisplayName) => pick({ zh: user.name, en: user.nameEn || user.name });
  const current = choices?.find((user) => user.id === value);
  const chosenText = current ? text(current) : value ? name('user', value) : '';
  // What the user types narrows the list; leaving the box shows the chosen name again.
  const [typed, setTyped] = useState<string | null>(null);
  const shown = (choices ?? []).filter(
    (user) => !typed || text(user).toLowerCase().includes(typed.toLowerCase()),
  );
  return (
    <Combobox
      aria-label={label}
      data-testid={testId}
      clearable
      freeform={false}
      value={typed ?? chosenText}
      selectedOptions={value ? [value] : []}
      onChange={(event: ChangeEvent<HTMLInputElement>) => setTyped(event.target.value)}
      onBlur={() => setTyped(null)}
      onOptionSelect={(_: unknown, data: OptionOnSelectData) => {
        setTyped(null);
        onChange(data.optionValue ?? '');
      }}
    >
      {shown.map((user) => (
        <Option key={user.id} value={user.id} text={text(user)}>
          {text(user)}
        </Option>
      ))}
    </Combobox>
  );
}
