/** Index templates in the cluster metadata: the model, the changes the master makes, and what a new index takes. */
export * from './template-model.js';
export { patternsOverlap, isMatchAllPattern } from './pattern-overlap.js';
export {
  applyTemplatesToRequest,
  findComposableTemplate,
  findLegacyTemplates,
  resolveComposable,
  resolveLegacy,
  type ResolvedTemplate,
  type TemplatedCreateRequest,
} from './template-resolution.js';
export {
  conflictingComposable,
  conflictingLegacy,
  putComponentTemplate,
  putComposableTemplate,
  putLegacyTemplate,
  removeComponentTemplates,
  removeComposableTemplates,
  removeLegacyTemplates,
  validateComposableRequest,
  type TemplatesUpdate,
  applyTemplateChange,
  type TemplateChange,
} from './template-updates.js';
export { composeTemplateMappings, mergeTemplateMapping, mergeDefaults, unwrapDocType } from './mapping-composition.js';
export { validateTemplateMapping } from './template-validation.js';
