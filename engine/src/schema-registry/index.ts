export type {
  Codelist,
  CodelistValue,
  FieldInfo,
  JsonSchema,
  SchemaSet,
  SchemaLocation,
  BilingualText,
  NullFlavor,
} from './types';
export { NULL_FLAVORS } from './types';
export {
  CASE_ROOT_ID,
  walkFields,
  locateProperty,
  parseDataPath,
  formatDataPath,
  pointerToFieldPath,
  deref,
  resolveRef,
} from './schema-set';
export { expandForValidation, allowedCodes, nullFlavorSchema } from './expand';
export type { ConfigEdit, ConfigLayerName, EditProblem } from './edits';
export { layerConfiguration, resolveConfiguration, ConfigurationError } from './resolve';
export type { BaseConfiguration, ConfigurationLayers, ResolvedConfiguration } from './resolve';
export { stableStringify, hashContent } from './stable-hash';
