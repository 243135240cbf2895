/**
 * Templates printed as ES prints them: ComposableIndexTemplate.toXContent (index_patterns, template,
 * composed_of, priority, version, _meta, allow_auto_create, ignore_missing_component_templates),
 * ComponentTemplate.toXContent (template, version, _meta), Template.toXContent (settings nested unless
 * `flat_settings`, mappings without `_doc`, aliases as AliasMetadata) and the legacy
 * IndexTemplateMetadata (order, version, index_patterns, settings, mappings, aliases).
 */
import { setOwnValue } from '../../common/own-keys.js';
import type { ComponentTemplate, ComposableTemplate, IndexTemplates, LegacyTemplate, TemplateBody } from '../../cluster/metadata/templates/index.js';
import { settingsXContent } from '../indices/settings-xcontent.js';

type Json = Record<string, unknown>;

export function templateBodyXContent(template: TemplateBody, flatSettings: boolean): Json {
  const out: Json = {};
  if (template.settings !== undefined) out['settings'] = settingsXContent({ ...template.settings }, flatSettings);
  if (template.mappings !== undefined) out['mappings'] = template.mappings;
  if (template.aliases !== undefined) out['aliases'] = template.aliases;
  return out;
}

export function composableXContent(template: ComposableTemplate, flatSettings: boolean): Json {
  const out: Json = { index_patterns: template.indexPatterns };
  if (template.template !== undefined) out['template'] = templateBodyXContent(template.template, flatSettings);
  out['composed_of'] = template.composedOf;
  if (template.priority !== undefined) out['priority'] = template.priority;
  if (template.version !== undefined) out['version'] = template.version;
  if (template.meta !== undefined) out['_meta'] = template.meta;
  if (template.allowAutoCreate !== undefined) out['allow_auto_create'] = template.allowAutoCreate;
  if (template.ignoreMissingComponentTemplates !== undefined) out['ignore_missing_component_templates'] = template.ignoreMissingComponentTemplates;
  return out;
}

export function componentXContent(template: ComponentTemplate, flatSettings: boolean): Json {
  const out: Json = { template: templateBodyXContent(template.template, flatSettings) };
  if (template.version !== undefined) out['version'] = template.version;
  if (template.meta !== undefined) out['_meta'] = template.meta;
  return out;
}

export function legacyXContent(template: LegacyTemplate, flatSettings: boolean): Json {
  const out: Json = { order: template.order };
  if (template.version !== undefined) out['version'] = template.version;
  out['index_patterns'] = template.indexPatterns;
  out['settings'] = settingsXContent({ ...template.settings }, flatSettings);
  out['mappings'] = template.mappings;
  out['aliases'] = template.aliases;
  return out;
}

/**
 * The templates in `GET _cluster/state`'s metadata (API context): legacy templates under `templates` with their
 * mapping named by its type, as IndexTemplateMetadata.toXContentWithTypes prints them, and the composable and
 * component templates as the `index_template` / `component_template` customs (printed only once there are any).
 */
export function clusterStateTemplates(templates: IndexTemplates, flatSettings: boolean): { legacy: Json; customs: Json } {
  const legacy: Json = {};
  for (const [name, template] of Object.entries(templates.legacy)) {
    const printed = legacyXContent(template, flatSettings);
    setOwnValue(legacy, name, { ...printed, mappings: Object.keys(template.mappings).length === 0 ? {} : { _doc: template.mappings } });
  }
  const customs: Json = {};
  if (Object.keys(templates.composable).length > 0) {
    const composable: Json = {};
    for (const [name, template] of Object.entries(templates.composable)) setOwnValue(composable, name, composableXContent(template, flatSettings));
    customs['index_template'] = { index_template: composable };
  }
  if (Object.keys(templates.component).length > 0) {
    const component: Json = {};
    for (const [name, template] of Object.entries(templates.component)) setOwnValue(component, name, componentXContent(template, flatSettings));
    customs['component_template'] = { component_template: component };
  }
  return { legacy, customs };
}
