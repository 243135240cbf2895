/**
 * The master-side changes to the templates in the cluster metadata, as MetadataIndexTemplateService's
 * addComponentTemplate, addIndexTemplateV2, innerPutTemplate and the remove operations: each takes the current
 * templates and returns the next ones (the same object when nothing changes, so no new state is published),
 * with ES's checks and messages. Warnings ES sends as `Warning` headers come back in `warnings`.
 */
import { ownValue } from '../../../common/own-keys.js';
import { EsError, templateErrors } from '../../../common/errors.js';
import { simpleMatch } from '../../../common/wildcards.js';
import { isMatchAllPattern, patternsOverlap } from './pattern-overlap.js';
import { composableMappings, composableSettings } from './template-resolution.js';
import { priorityOf, withEntry, type ComponentTemplate, type ComposableTemplate, type IndexTemplates, type LegacyTemplate } from './template-model.js';
import { validateTemplateMapping, validateTemplateShape } from './template-validation.js';

export interface TemplatesUpdate {
  readonly templates: IndexTemplates;
  readonly warnings: string[];
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Composable templates (other than `name`) whose patterns overlap `patterns`; with a priority, only those of that priority. */
export function conflictingComposable(templates: IndexTemplates, name: string, patterns: readonly string[], priority?: number): Array<[string, readonly string[]]> {
  return Object.entries(templates.composable)
    .filter(([other, template]) => other !== name && patternsOverlap(patterns, template.indexPatterns) && (priority === undefined || priorityOf(template) === priority))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([other, template]): [string, readonly string[]] => [other, template.indexPatterns]);
}

export function conflictingLegacy(templates: IndexTemplates, patterns: readonly string[]): Array<[string, readonly string[]]> {
  return Object.entries(templates.legacy)
    .filter(([, template]) => patternsOverlap(patterns, template.indexPatterns))
    .map(([other, template]): [string, readonly string[]] => [other, template.indexPatterns]);
}

/** validateCompositeTemplate: the composed settings, aliases and mappings must make a valid index. */
function validateComposite(templates: IndexTemplates, name: string, template: ComposableTemplate): void {
  try {
    const settings = composableSettings(templates, template);
    validateTemplateMapping(settings, composableMappings(templates, template));
  } catch (err) {
    if (!(err instanceof EsError)) throw err;
    const invalidMappings = new EsError('illegal_argument_exception', `invalid composite mappings for [${name}]`, { causedBy: err });
    throw templateErrors.compositionInvalid(name, template.composedOf, invalidMappings);
  }
}

/** validateV2TemplateRequest: no `index.hidden` through a global template, and every component must exist. */
export function validateComposableRequest(templates: IndexTemplates, name: string, template: ComposableTemplate): void {
  if (template.indexPatterns.some(isMatchAllPattern) && composableSettings(templates, template)['index.hidden'] !== undefined) {
    throw templateErrors.invalid(name, 'global composable templates may not specify the setting index.hidden');
  }
  const ignored = template.ignoreMissingComponentTemplates ?? [];
  const missing = template.composedOf.filter((component) => ownValue(templates.component, component) === undefined && !ignored.includes(component));
  if (missing.length > 0) {
    const cause = ignored.length === 0 ? templateErrors.missingComponents(name, missing) : templateErrors.missingComponentsNotIgnored(name, missing);
    throw templateErrors.invalid(name, cause);
  }
}

export function putComposableTemplate(templates: IndexTemplates, name: string, template: ComposableTemplate, create: boolean): TemplatesUpdate {
  const existing = ownValue(templates.composable, name);
  if (create && existing !== undefined) throw templateErrors.composableExists(name);
  const overlaps = conflictingComposable(templates, name, template.indexPatterns, priorityOf(template));
  if (overlaps.length > 0) throw templateErrors.samePriorityOverlap(name, template.indexPatterns, overlaps, priorityOf(template));
  const warnings: string[] = [];
  const legacy = conflictingLegacy(templates, template.indexPatterns);
  if (legacy.length > 0) warnings.push(templateErrors.shadowsLegacyWarning(name, template.indexPatterns, legacy));
  if (sameJson(existing, template)) return { templates, warnings };
  validateTemplateShape(name, template.template?.settings, template.indexPatterns, template.template?.aliases ?? {});
  validateComposite(templates, name, template);
  return { templates: { ...templates, composable: withEntry(templates.composable, name, template) }, warnings };
}

export function putComponentTemplate(templates: IndexTemplates, name: string, component: ComponentTemplate, create: boolean): TemplatesUpdate {
  const existing = ownValue(templates.component, name);
  if (create && existing !== undefined) throw templateErrors.componentExists(name);
  const users = Object.entries(templates.composable).filter(([, template]) => template.composedOf.includes(name));
  if (!create && component.template.settings?.['index.hidden'] !== undefined) {
    const globals = users.filter(([, template]) => template.indexPatterns.some(isMatchAllPattern)).map(([user]) => user);
    if (globals.length > 0) throw templateErrors.componentHiddenInGlobal(name, globals);
  }
  if (sameJson(existing, component)) return { templates, warnings: [] };
  validateTemplateMapping(component.template.settings, component.template.mappings);
  validateTemplateShape(name, component.template.settings, [], component.template.aliases ?? {});
  const next: IndexTemplates = { ...templates, component: withEntry(templates.component, name, component) };
  for (const [user, template] of users) {
    try {
      validateComposite(next, user, template);
    } catch (err) {
      if (err instanceof EsError) throw templateErrors.componentUpdateBreaks(name, user, err);
      throw err;
    }
  }
  return { templates: next, warnings: [] };
}

export function putLegacyTemplate(templates: IndexTemplates, name: string, template: LegacyTemplate, create: boolean): TemplatesUpdate {
  validateTemplateShape(name, template.settings, template.indexPatterns, template.aliases);
  const existing = ownValue(templates.legacy, name);
  if (create && existing !== undefined) throw templateErrors.legacyExists(name);
  const warnings: string[] = [];
  const overlaps = conflictingComposable(templates, name, template.indexPatterns);
  if (overlaps.length > 0) {
    const patternsUnchanged = existing !== undefined && sameJson(existing.indexPatterns, template.indexPatterns);
    if (!patternsUnchanged && !template.indexPatterns.some(isMatchAllPattern)) throw templateErrors.legacyOverlapsComposable(name, template.indexPatterns, overlaps);
    warnings.push(templateErrors.legacyOverlapsComposableWarning(name, template.indexPatterns, overlaps));
  }
  validateTemplateMapping(template.settings, Object.keys(template.mappings).length > 0 ? template.mappings : undefined);
  if (sameJson(existing, template)) return { templates, warnings };
  return { templates: { ...templates, legacy: withEntry(templates.legacy, name, template) }, warnings };
}

/**
 * The names a delete removes: several names must each exist (wildcards are then literal names, so missing); one
 * name may be a wildcard, and a match-all pattern that matches nothing is no error.
 */
function namesToRemove(existing: readonly string[], names: readonly string[], missing: (names: string[]) => EsError): string[] {
  if (names.length > 1) {
    const absent = names.filter((name) => !existing.includes(name));
    if (absent.length > 0) throw missing([...new Set(absent)]);
    return [...names];
  }
  const pattern = names[0] ?? '';
  const matched = existing.filter((name) => simpleMatch(pattern, name));
  if (matched.length === 0 && !isMatchAllPattern(pattern)) throw missing([pattern]);
  return matched;
}

export function removeComposableTemplates(templates: IndexTemplates, names: readonly string[]): IndexTemplates {
  const removed = namesToRemove(Object.keys(templates.composable), names, (absent) => templateErrors.missing(absent.join(',')));
  if (removed.length === 0) return templates;
  let composable = templates.composable;
  for (const name of removed) composable = withEntry(composable, name, undefined);
  return { ...templates, composable };
}

/** validateNotInUse, then the removal. */
export function removeComponentTemplates(templates: IndexTemplates, names: readonly string[]): IndexTemplates {
  const matches = (name: string) => (names.length > 1 ? names.includes(name) : simpleMatch(names[0] ?? '', name));
  const candidates = new Set(Object.keys(templates.component).filter(matches));
  const inUse = new Set<string>();
  const users: string[] = [];
  for (const [user, template] of Object.entries(templates.composable)) {
    const used = template.composedOf.filter((component) => candidates.has(component));
    if (used.length > 0) {
      users.push(user);
      for (const component of used) inUse.add(component);
    }
  }
  if (users.length > 0) throw templateErrors.componentInUse([...inUse], users);
  const removed = namesToRemove(Object.keys(templates.component), names, (absent) => templateErrors.componentsMissing(absent));
  if (removed.length === 0) return templates;
  let component = templates.component;
  for (const name of removed) component = withEntry(component, name, undefined);
  return { ...templates, component };
}

/** Legacy delete: one name or wildcard (ES's RemoveRequest takes a single name). */
export function removeLegacyTemplates(templates: IndexTemplates, name: string): IndexTemplates {
  const removed = Object.keys(templates.legacy).filter((existing) => simpleMatch(name, existing));
  if (removed.length === 0) {
    if (isMatchAllPattern(name)) return templates;
    throw templateErrors.missing(name);
  }
  let legacy = templates.legacy;
  for (const existing of removed) legacy = withEntry(legacy, existing, undefined);
  return { ...templates, legacy };
}

/** A template change as a request the master runs (serializable: no closures cross to the master). */
export type TemplateChange =
  | { readonly kind: 'put-composable'; readonly name: string; readonly template: ComposableTemplate; readonly create: boolean }
  | { readonly kind: 'put-component'; readonly name: string; readonly component: ComponentTemplate; readonly create: boolean }
  | { readonly kind: 'put-legacy'; readonly name: string; readonly template: LegacyTemplate; readonly create: boolean }
  | { readonly kind: 'remove-composable'; readonly names: readonly string[] }
  | { readonly kind: 'remove-component'; readonly names: readonly string[] }
  | { readonly kind: 'remove-legacy'; readonly name: string };

export function applyTemplateChange(templates: IndexTemplates, change: TemplateChange): TemplatesUpdate {
  switch (change.kind) {
    case 'put-composable':
      validateComposableRequest(templates, change.name, change.template);
      return putComposableTemplate(templates, change.name, change.template, change.create);
    case 'put-component':
      return putComponentTemplate(templates, change.name, change.component, change.create);
    case 'put-legacy':
      return putLegacyTemplate(templates, change.name, change.template, change.create);
    case 'remove-composable':
      return { templates: removeComposableTemplates(templates, change.names), warnings: [] };
    case 'remove-component':
      return { templates: removeComponentTemplates(templates, change.names), warnings: [] };
    case 'remove-legacy':
      return { templates: removeLegacyTemplates(templates, change.name), warnings: [] };
  }
}
