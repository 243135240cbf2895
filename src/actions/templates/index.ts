/** The template APIs: composable (`_index_template`), component (`_component_template`), legacy (`_template`), simulate, `_cat/templates` and `_cat/component_templates`. */
import type { Route } from '../rest.js';
import { catRoutes } from '../cat/cat-endpoint.js';
import { indexTemplateRoutes } from './index-template-actions.js';
import { componentTemplateRoutes } from './component-template-actions.js';
import { legacyTemplateRoutes } from './legacy-template-actions.js';
import { simulateRoutes } from './simulate-actions.js';
import { catTemplatesEndpoint } from './cat-templates-action.js';
import { catComponentTemplatesEndpoint } from './cat-component-templates-action.js';

export const templateRoutes: Route[] = [
  ...simulateRoutes,
  ...indexTemplateRoutes,
  ...componentTemplateRoutes,
  ...legacyTemplateRoutes,
  ...catRoutes(catTemplatesEndpoint),
  ...catRoutes(catComponentTemplatesEndpoint),
];
