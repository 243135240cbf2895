/**
 * `GET /_cat/templates[/{name}]` (RestTemplatesAction): legacy templates first (name, patterns, order, version,
 * no components), then composable ones (priority in the order column, `composed_of`); lists print as Java does.
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { CatEndpoint } from '../cat/cat-endpoint.js';

export const templatesColumns = defineColumns([
  { name: 'name', aliases: ['n'], description: 'template name' },
  { name: 'index_patterns', aliases: ['t'], description: 'template index patterns' },
  { name: 'order', aliases: ['o', 'p'], description: 'template application order/priority number' },
  { name: 'version', aliases: ['v'], description: 'version' },
  { name: 'composed_of', aliases: ['c'], description: 'component templates comprising index template' },
]);

type TemplatesColumn = (typeof templatesColumns)[number]['name'];

const javaList = (items: readonly string[]) => `[${items.join(', ')}]`;

export const catTemplatesEndpoint: CatEndpoint<TemplatesColumn> = {
  documentation: ['/_cat/templates'],
  paths: ['/_cat/templates', '/_cat/templates/{name}'],
  action: 'indices:admin/template/get',
  params: ['local', 'master_timeout'],
  columns: templatesColumns,
  async rows(request, context) {
    const pattern = request.pathParams['name'];
    const matches = (name: string) => pattern === undefined || simpleMatch(pattern, name);
    const templates = context.services.clusterService.state().templates;
    const rows: Array<CatRow<TemplatesColumn>> = [];
    for (const [name, template] of Object.entries(templates.legacy)) {
      if (!matches(name)) continue;
      rows.push({
        name: cell.string(name),
        index_patterns: cell.string(javaList(template.indexPatterns)),
        order: cell.long(template.order),
        version: cell.maybe(template.version, cell.long),
        composed_of: cell.string(''),
      });
    }
    for (const [name, template] of Object.entries(templates.composable)) {
      if (!matches(name)) continue;
      rows.push({
        name: cell.string(name),
        index_patterns: cell.string(javaList(template.indexPatterns)),
        order: cell.long(template.priority ?? 0),
        version: cell.maybe(template.version, cell.long),
        composed_of: cell.string(javaList(template.composedOf)),
      });
    }
    return rows;
  },
};
