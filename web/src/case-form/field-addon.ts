/**
 * What a page adds beside each case field's label (the case page: the field's query marker and its
 * "query this field" action), given through context so the form itself knows nothing of queries.
 */
import { createContext } from 'react';
import type { ComponentType } from 'react';
import type { LocalisedText } from '../i18n';

export interface FieldAddonProps {
  /** Concrete JSON pointer of the field (`/drugs/0/drugName`). */
  pointer: string;
  e2b?: string;
  label: LocalisedText;
}

export const CaseFieldAddon = createContext<ComponentType<FieldAddonProps> | null>(null);
