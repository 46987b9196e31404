/** The case form: the tabs of schemas/ui/case-tabs.json rendered by RJSF over a case store. */
export { CaseStore } from './store';
export { CaseTabView, groupAnchorId, topGroups } from './CaseTabView';
export { ConfirmDialog } from './ConfirmDialog';
export { register, selectWidget, registeredWidgets } from './registry';
export type { CaseWidgetProps, FieldDescriptor, Registration, Tester } from './registry';
export { useCaseFormText, caseFormText } from './text';
export type { CaseFormKey } from './text';
export { getAt, setAt, isBlank } from './pointer';
export { seriousnessOf } from './seriousness';
export { CaseFieldAddon } from './field-addon';
export type { FieldAddonProps } from './field-addon';
