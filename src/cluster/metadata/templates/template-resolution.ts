/**
 * Which templates a new index takes, and what they give it, as ES's MetadataIndexTemplateService.findV2Template /
 * findV1Templates and MetadataCreateIndexService do on index creation:
 * - the composable template with the highest priority whose patterns match wins (a hidden index skips templates
 *   whose patterns include `*`); its component templates apply in `composed_of` order, then its own `template`;
 * - only when no composable template matches, every matching legacy template applies, lower `order` first so
 *   that a higher order wins;
 * - the create request itself goes on top: its settings override, its mappings merge over the templates'
 *   (see mapping-composition.ts), and its aliases win over same-named template aliases.
 */
import { ownValue, setOwnValue } from '../../../common/own-keys.js';
import { templateErrors } from '../../../common/errors.js';
import { simpleMatch } from '../../../common/wildcards.js';
import { normalizeSettings } from '../../../indices/index.js';
import { composeTemplateMappings, mergeDefaults, mergeTemplateMapping } from './mapping-composition.js';
import { isMatchAllPattern } from './pattern-overlap.js';
import { priorityOf, type ComposableTemplate, type IndexTemplates, type LegacyTemplate } from './template-model.js';

type Json = Record<string, unknown>;

/** What the templates resolve to for one index, before the request's own values go on top. */
export interface ResolvedTemplate {
  readonly settings: Record<string, string>;
  readonly mappings: Json | undefined;
  /** Alias name -> definition; earlier entries take precedence over later ones of the same name. */
  readonly aliases: Array<[string, unknown]>;
}

/** ES's findV2Template: the name of the winning composable template, or undefined. */
export function findComposableTemplate(templates: IndexTemplates, indexName: string, isHidden: boolean): string | undefined {
  let winner: { name: string; priority: number } | undefined;
  for (const [name, template] of Object.entries(templates.composable)) {
    if (isHidden && template.indexPatterns.some(isMatchAllPattern)) continue;
    if (!template.indexPatterns.some((pattern) => simpleMatch(pattern, indexName))) continue;
    const priority = priorityOf(template);
    if (winner === undefined || priority > winner.priority) winner = { name, priority };
  }
  return winner?.name;
}

/** ES's resolveSettings for a composable template: components in order, then the template's own. */
export function composableSettings(templates: IndexTemplates, template: ComposableTemplate): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const component of template.composedOf) Object.assign(settings, ownValue(templates.component, component)?.template.settings ?? {});
  Object.assign(settings, template.template?.settings ?? {});
  return settings;
}

export function composableMappings(templates: IndexTemplates, template: ComposableTemplate): Json | undefined {
  const mappings = template.composedOf.map((component) => ownValue(templates.component, component)?.template.mappings);
  mappings.push(template.template?.mappings);
  return composeTemplateMappings(mappings);
}

/** ES's resolveAliases: the index template's own aliases first, then its components from last to first. */
export function composableAliases(templates: IndexTemplates, template: ComposableTemplate): Array<[string, unknown]> {
  const sources = [template.template?.aliases, ...[...template.composedOf].reverse().map((component) => ownValue(templates.component, component)?.template.aliases)];
  return sources.flatMap((aliases) => Object.entries(aliases ?? {}));
}

export function resolveComposable(templates: IndexTemplates, name: string): ResolvedTemplate {
  const template = ownValue(templates.composable, name)!;
  return { settings: composableSettings(templates, template), mappings: composableMappings(templates, template), aliases: composableAliases(templates, template) };
}

/** ES's findV1Templates: the matching legacy templates, highest `order` first. */
export function findLegacyTemplates(templates: IndexTemplates, indexName: string, isHidden: boolean | undefined): Array<[string, LegacyTemplate]> {
  let matched = Object.entries(templates.legacy).filter(([, template]) => {
    if (isHidden === true && template.indexPatterns.some(isMatchAllPattern)) return false;
    return template.indexPatterns.some((pattern) => simpleMatch(pattern, indexName));
  });
  // A stable sort, as ES's timSort, so equal orders keep the metadata's order.
  matched = matched.map((entry, position) => ({ entry, position })).sort((a, b) => b.entry[1].order - a.entry[1].order || a.position - b.position).map(({ entry }) => entry);
  if (isHidden === undefined) {
    // The index is not hidden by the request but may become hidden by a template: then global templates drop out.
    const withHidden = matched.find(([, template]) => template.settings['index.hidden'] !== undefined);
    if (withHidden !== undefined) {
      if (withHidden[1].settings['index.hidden'] === 'true') matched = matched.filter(([, template]) => !template.indexPatterns.some(isMatchAllPattern));
      const afterRemoval = matched.find(([, template]) => template.settings['index.hidden'] !== undefined);
      if (afterRemoval === undefined || afterRemoval[0] !== withHidden[0]) {
        throw templateErrors.globalHidden(withHidden[0]);
      }
    }
  }
  return matched;
}

export function resolveLegacy(matched: ReadonlyArray<[string, LegacyTemplate]>, requestMappings: Json | undefined): ResolvedTemplate & { mappings: Json | undefined } {
  const settings: Record<string, string> = {};
  for (let i = matched.length - 1; i >= 0; i--) Object.assign(settings, matched[i]![1].settings);
  let mappings = requestMappings;
  for (const [, template] of matched) {
    if (Object.keys(template.mappings).length === 0) continue;
    mappings = mergeDefaults(mappings ?? {}, template.mappings);
  }
  const aliases = matched.flatMap(([, template]) => Object.entries(template.aliases));
  return { settings, mappings, aliases };
}

export interface TemplatedCreateRequest {
  readonly settings: Record<string, string | null>;
  /** A malformed request value (not an object) is passed on for the create path to refuse. */
  readonly mappings: unknown;
  readonly aliases: unknown;
}

function requestedHidden(settings: Record<string, string | null>): boolean | undefined {
  const value = settings['index.hidden'];
  if (value === undefined || value === null) return undefined;
  return value === 'true';
}

function mergeAliases(requestAliases: unknown, templateAliases: ReadonlyArray<[string, unknown]>): unknown {
  if (templateAliases.length === 0) return requestAliases;
  // A malformed request value is left for the create path to refuse with its own message.
  if (requestAliases !== undefined && requestAliases !== null && (typeof requestAliases !== 'object' || Array.isArray(requestAliases))) return requestAliases;
  const out: Json = { ...((requestAliases as Json | null | undefined) ?? {}) };
  for (const [name, definition] of templateAliases) if (!Object.hasOwn(out, name)) setOwnValue(out, name, definition);
  return out;
}

/**
 * The create request with the matching templates applied, or `undefined` when no template matches (the request
 * then goes on unchanged). Settings come back flat (`index.` prefixed), mappings unwrapped from `_doc`.
 */
export function applyTemplatesToRequest(
  templates: IndexTemplates,
  indexName: string,
  request: { settings?: unknown; mappings?: unknown; aliases?: unknown },
): TemplatedCreateRequest | undefined {
  const requestSettings = normalizeSettings(request.settings);
  const hidden = requestedHidden(requestSettings);
  // The REST layer has refused a mapping under `_doc` already (ES 8's RestCreateIndexAction.prepareMappings).
  const requestMappings = request.mappings !== null && typeof request.mappings === 'object' && !Array.isArray(request.mappings) ? (request.mappings as Json) : undefined;
  if (request.mappings !== undefined && request.mappings !== null && requestMappings === undefined) return undefined;
  const composable = findComposableTemplate(templates, indexName, hidden === true);
  if (composable !== undefined) {
    const resolved = resolveComposable(templates, composable);
    const mappings = requestMappings === undefined ? resolved.mappings : resolved.mappings === undefined ? requestMappings : mergeTemplateMapping(resolved.mappings, requestMappings);
    return { settings: { ...resolved.settings, ...requestSettings }, mappings, aliases: mergeAliases(request.aliases, resolved.aliases) };
  }
  const legacy = findLegacyTemplates(templates, indexName, hidden);
  if (legacy.length === 0) return undefined;
  const resolved = resolveLegacy(legacy, requestMappings);
  return { settings: { ...resolved.settings, ...requestSettings }, mappings: resolved.mappings, aliases: mergeAliases(request.aliases, resolved.aliases) };
}
