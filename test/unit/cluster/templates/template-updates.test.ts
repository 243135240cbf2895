import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  NO_TEMPLATES,
  applyTemplatesToRequest,
  putComponentTemplate,
  putComposableTemplate,
  putLegacyTemplate,
  removeComponentTemplates,
  removeComposableTemplates,
  removeLegacyTemplates,
  type IndexTemplates,
} from '../../../../src/cluster/metadata/templates/index.js';
import { EsError } from '../../../../src/common/errors.js';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof EsError) return `${err.type}: ${err.reason}`;
    throw err;
  }
  return 'no error';
}

const legacy = (patterns: string[], order = 0) => ({ order, indexPatterns: patterns, settings: {}, mappings: {}, aliases: {} });

test('an unchanged put returns the same templates object (no new cluster state)', () => {
  const first = putComposableTemplate(NO_TEMPLATES, 'a', { indexPatterns: ['a-*'], composedOf: [] }, false).templates;
  assert.equal(putComposableTemplate(first, 'a', { indexPatterns: ['a-*'], composedOf: [] }, false).templates, first);
  const withLegacy = putLegacyTemplate(first, 'l', legacy(['l-*']), false).templates;
  assert.equal(putLegacyTemplate(withLegacy, 'l', legacy(['l-*']), false).templates, withLegacy);
});

test('deletes: one wildcard may match nothing only when it is *, several names must all exist', () => {
  let templates: IndexTemplates = NO_TEMPLATES;
  for (const name of ['x1', 'x2', 'y1']) templates = putComposableTemplate(templates, name, { indexPatterns: [`${name}-*`], composedOf: [] }, false).templates;
  assert.deepEqual(Object.keys(removeComposableTemplates(templates, ['x*']).composable), ['y1']);
  assert.equal(removeComposableTemplates(NO_TEMPLATES, ['*']), NO_TEMPLATES);
  assert.equal(reason(() => removeComposableTemplates(templates, ['z*'])), 'index_template_missing_exception: index_template [z*] missing');
  assert.equal(reason(() => removeComposableTemplates(templates, ['x1', 'nope', 'nada'])), 'index_template_missing_exception: index_template [nope,nada] missing');
  assert.equal(reason(() => removeLegacyTemplates(NO_TEMPLATES, 'old')), 'index_template_missing_exception: index_template [old] missing');
  assert.equal(removeLegacyTemplates(NO_TEMPLATES, '*'), NO_TEMPLATES);
});

test('a component in use cannot be removed, also through a wildcard', () => {
  let templates = putComponentTemplate(NO_TEMPLATES, 'ct-1', { template: { settings: { 'index.number_of_shards': '2' } } }, false).templates;
  templates = putComponentTemplate(templates, 'ct-2', { template: {} }, false).templates;
  templates = putComposableTemplate(templates, 'uses', { indexPatterns: ['u-*'], composedOf: ['ct-1'] }, false).templates;
  assert.equal(
    reason(() => removeComponentTemplates(templates, ['ct-*'])),
    'illegal_argument_exception: component templates [ct-1] cannot be removed as they are still in use by index templates [uses]',
  );
  assert.deepEqual(Object.keys(removeComponentTemplates(templates, ['ct-2']).component), ['ct-1']);
  assert.equal(reason(() => removeComponentTemplates(templates, ['gone'])), 'resource_not_found_exception: gone');
});

test('a match-all legacy template over composable ones is a warning, not an error', () => {
  const templates = putComposableTemplate(NO_TEMPLATES, 'v2', { indexPatterns: ['logs-*'], composedOf: [] }, false).templates;
  const result = putLegacyTemplate(templates, 'global', legacy(['*']), false);
  assert.deepEqual(result.warnings, [
    'legacy template [global] has index patterns [*] matching patterns from existing composable templates [v2] with patterns (v2 => [logs-*]); this template [global] may be ignored in favor of a composable template at index creation time',
  ]);
});

test('legacy templates apply lowest order first; the request wins; composable ones shut legacy ones out', () => {
  let templates = putLegacyTemplate(NO_TEMPLATES, 'low', { ...legacy(['app-*'], 1), settings: { 'index.number_of_shards': '1', 'index.refresh_interval': '1s' } }, false).templates;
  templates = putLegacyTemplate(templates, 'high', { ...legacy(['app-*'], 9), settings: { 'index.number_of_shards': '4' } }, false).templates;
  const applied = applyTemplatesToRequest(templates, 'app-1', { settings: { refresh_interval: '3s' } });
  assert.deepEqual(applied?.settings, { 'index.number_of_shards': '4', 'index.refresh_interval': '3s' });
  assert.equal(applyTemplatesToRequest(templates, 'other', {}), undefined);
  templates = putComposableTemplate(templates, 'v2', { indexPatterns: ['app-*'], composedOf: [], template: { settings: { 'index.number_of_replicas': '0' } } }, false).templates;
  assert.deepEqual(applyTemplatesToRequest(templates, 'app-1', {})?.settings, { 'index.number_of_replicas': '0' });
});
