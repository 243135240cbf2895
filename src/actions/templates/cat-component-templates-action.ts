/**
 * `GET /_cat/component_templates[/{name}]` (RestCatComponentTemplateAction): one row per component template (name
 * pattern with wildcards), in name order: its version, how many aliases, mapping entries, settings and metadata
 * keys it holds, and the composable templates composed of it, printed as Java prints a set (`[a, b]`, here sorted).
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { CatEndpoint } from '../cat/cat-endpoint.js';

export const componentTemplatesColumns = defineColumns([
  { name: 'name', aliases: ['n'], description: 'component template name' },
  { name: 'version', aliases: ['v'], description: 'version' },
  { name: 'alias_count', aliases: ['a'], description: 'alias count' },
  { name: 'mapping_count', aliases: ['m'], description: 'mapping count' },
  { name: 'settings_count', aliases: ['s'], description: 'settings count' },
  { name: 'metadata_count', aliases: ['me'], description: 'metadata count' },
  { name: 'included_in', aliases: ['i'], description: 'included in' },
]);

type ComponentTemplatesColumn = (typeof componentTemplatesColumns)[number]['name'];

/**
 * ES's countMappingInTemplate: for each top-level entry of the mapping (`properties`, `dynamic`, ...), an object
 * counts its keys, a list its elements' counts, anything else 1.
 */
function mappingCount(mappings: Readonly<Record<string, unknown>> | undefined): number {
  const count = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + count(item), 0);
    if (value !== null && typeof value === 'object') return Object.keys(value).length;
    return 1;
  };
  return Object.values(mappings ?? {}).reduce((sum: number, value) => sum + count(value), 0);
}

export const catComponentTemplatesEndpoint: CatEndpoint<ComponentTemplatesColumn> = {
  documentation: ['/_cat/component_templates'],
  paths: ['/_cat/component_templates', '/_cat/component_templates/{name}'],
  action: 'cluster:monitor/state',
  params: ['local', 'master_timeout'],
  columns: componentTemplatesColumns,
  async rows(request, context) {
    const pattern = request.pathParams['name'];
    request.paramBool('local', false);
    request.paramTimeMillis('master_timeout', 30_000);
    const templates = context.services.clusterService.state().templates;
    const includedIn = new Map<string, string[]>();
    for (const [name, template] of Object.entries(templates.composable)) {
      for (const component of template.composedOf) includedIn.set(component, [...(includedIn.get(component) ?? []), name]);
    }
    const rows: Array<CatRow<ComponentTemplatesColumn>> = [];
    for (const name of Object.keys(templates.component).sort()) {
      if (pattern !== undefined && !simpleMatch(pattern, name)) continue;
      const template = templates.component[name]!;
      rows.push({
        name: cell.string(name),
        version: cell.maybe(template.version, cell.long),
        alias_count: cell.long(Object.keys(template.template.aliases ?? {}).length),
        mapping_count: cell.long(mappingCount(template.template.mappings)),
        settings_count: cell.long(Object.keys(template.template.settings ?? {}).length),
        metadata_count: cell.long(Object.keys(template.meta ?? {}).length),
        included_in: cell.string(`[${(includedIn.get(name) ?? []).sort().join(', ')}]`),
      });
    }
    return rows;
  },
};
