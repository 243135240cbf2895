/**
 * The column tables of `_cat/indices` and `_cat/shards` (what `h=*` and `help` list) in ES's order: every
 * statistic column of `_cat/indices` has its `pri.` sibling right after it, the 8.18 version-conflict column
 * follows index_failed, memory.total and search.throttled sit between the suggest and bulk columns, and the
 * vector counts close the table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indicesColumns } from '../../../../src/actions/cat/indices-action.js';
import { shardsColumns } from '../../../../src/actions/cat/shards-action.js';

const names = (columns: readonly { name: string }[]) => columns.map((column) => column.name);

test('_cat/indices: pri siblings, version conflicts after index_failed, memory.total before bulk, vectors last', () => {
  const all = names(indicesColumns);
  for (const [i, column] of indicesColumns.entries()) {
    if (column.sibling === 'pri') assert.equal(all[i + 1], `pri.${column.name}`, column.name);
  }
  const at = (name: string) => all.indexOf(name);
  assert.deepEqual(all.slice(at('indexing.index_failed'), at('merges.current')), [
    'indexing.index_failed',
    'pri.indexing.index_failed',
    'indexing.index_failed_due_to_version_conflict',
    'pri.indexing.index_failed_due_to_version_conflict',
  ]);
  assert.deepEqual(all.slice(at('suggest.total'), at('bulk.total_operations')), ['suggest.total', 'pri.suggest.total', 'memory.total', 'pri.memory.total', 'search.throttled']);
  assert.deepEqual(all.slice(-6), [
    'bulk.avg_size_in_bytes',
    'pri.bulk.avg_size_in_bytes',
    'dense_vector.value_count',
    'pri.dense_vector.value_count',
    'sparse_vector.value_count',
    'pri.sparse_vector.value_count',
  ]);
  const conflict = indicesColumns.find((column) => column.name === 'indexing.index_failed_due_to_version_conflict')!;
  assert.deepEqual(conflict.aliases, ['iifvc', 'indexingIndexFailedDueToVersionConflict']);
});

test('_cat/shards: the version-conflict column follows index_failed', () => {
  const all = names(shardsColumns);
  assert.equal(all.indexOf('indexing.index_failed_due_to_version_conflict'), all.indexOf('indexing.index_failed') + 1);
  assert.equal(all.indexOf('merges.current'), all.indexOf('indexing.index_failed_due_to_version_conflict') + 1);
});
