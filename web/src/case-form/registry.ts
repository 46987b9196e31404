/**
 * The widget registry, JSON Forms style: each widget registers with a tester over the field (its
 * schema, its pointer and the layout's hint from schemas/ui/case-tabs.json) and a rank; the highest
 * rank whose tester holds renders the field. A new widget is one `register(...)` call.
 */
import type { ComponentType } from 'react';
import type { CaseJsonSchema } from '@pv/engine';

export interface FieldDescriptor {
  /** Layout pointer, `*` for array indexes (`/drugs/*\/dosages/*\/startDate`). */
  pointer: string;
  schema: CaseJsonSchema;
  /** The layout's widget name for the field (case-tabs.json `widgets`), if any. */
  hint?: string;
}

/** What every case widget receives (a subset of RJSF's WidgetProps, plus the field descriptor). */
export interface CaseWidgetProps {
  id: string;
  value: unknown;
  /** Every change (keystroke): the value is written to the case at once. */
  onChange(value: unknown): void;
  disabled: boolean;
  field: FieldDescriptor;
  /** Accessible name (the label is rendered by the field around the widget). */
  label: string;
  invalid: boolean;
  /** Reads a sibling property of the same object (a MedDRA code's name, a native text's language). */
  sibling?(name: string): unknown;
  /** Writes a sibling property of the same object. */
  setSibling?(name: string, value: unknown): void;
  /** Reads any value of the case by pointer (a picker reads the case's project, /report/studyProjectId). */
  caseValue?(pointer: string): unknown;
}

export type Tester = (field: FieldDescriptor) => boolean;

export interface Registration {
  name: string;
  rank: number;
  tester: Tester;
  component: ComponentType<CaseWidgetProps>;
}

const registrations: Registration[] = [];

export function register(registration: Registration): void {
  const existing = registrations.findIndex((r) => r.name === registration.name);
  if (existing >= 0) registrations.splice(existing, 1);
  registrations.push(registration);
}

export function registeredWidgets(): readonly Registration[] {
  return registrations;
}

/** The best-ranked registration whose tester holds, or null when none does. */
export function selectWidget(field: FieldDescriptor): Registration | null {
  let best: Registration | null = null;
  for (const registration of registrations) {
    if ((best === null || registration.rank > best.rank) && registration.tester(field)) best = registration;
  }
  return best;
}

// Testers, composable.
export const and =
  (...testers: Tester[]): Tester =>
  (field) =>
    testers.every((t) => t(field));
export const or =
  (...testers: Tester[]): Tester =>
  (field) =>
    testers.some((t) => t(field));
export const hasKeyword =
  (keyword: string): Tester =>
  (field) =>
    field.schema[keyword] !== undefined;
export const hasHint =
  (...hints: string[]): Tester =>
  (field) =>
    field.hint !== undefined && hints.includes(field.hint);
export const isType =
  (...types: string[]): Tester =>
  (field) =>
    types.includes(String(field.schema.type));
export const codelistIs =
  (...names: string[]): Tester =>
  (field) =>
    names.includes(String(field.schema['x-codelist'] ?? ''));
export const always: Tester = () => true;
