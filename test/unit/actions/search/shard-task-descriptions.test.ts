/**
 * The descriptions of a search's shard-level tasks are ES's request descriptions (ShardSearchRequest,
 * InternalScrollSearchRequest, ShardFetchRequest with ShardSearchContextId and Lucene's ScoreDoc/FieldDoc).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canMatchNodeDescription, fetchDescription, scrollQueryDescription, shardSearchDescription } from '../../../../src/actions/search/shard-task-descriptions.js';

const context = { sessionId: 'aBcD', contextId: 17 };

test('a shard search request names its shard', () => {
  assert.equal(shardSearchDescription('logs-2024', 3), 'shardId[[logs-2024][3]]');
});

test("a node's can-match request names its shards as a Java list prints them", () => {
  assert.equal(canMatchNodeDescription([{ index: 'cm6', shard: 0 }, { index: 'cm6', shard: 3 }]), 'shardIds[[[cm6][0], [cm6][3]]]');
});

test("a scroll's next page names its context number and keep-alive", () => {
  assert.equal(scrollQueryDescription(context, 60_000), 'id[17], scroll[1m]');
  assert.equal(scrollQueryDescription(context, 90_000), 'id[17], scroll[1.5m]');
  assert.equal(scrollQueryDescription(context, undefined), 'id[17], scroll[null]');
});

test('a fetch names its context, how many documents, and the last emitted one of a scroll', () => {
  assert.equal(fetchDescription(context, 10, 0, undefined), 'id[[aBcD][17] searcherId [null]], size[10], lastEmittedDoc[null]');
  assert.equal(fetchDescription(context, 2, 1, { kind: 'relevance', score: 1, doc: 42 }), 'id[[aBcD][17] searcherId [null]], size[2], lastEmittedDoc[doc=42 score=1.0 shardIndex=1]');
  assert.equal(fetchDescription(context, 2, 1, { kind: 'relevance', score: 0.2876821, doc: 5 }), 'id[[aBcD][17] searcherId [null]], size[2], lastEmittedDoc[doc=5 score=0.2876821 shardIndex=1]');
  assert.equal(fetchDescription(context, 1, 0, { kind: 'fields', values: [7, 'b'], doc: 3 }), 'id[[aBcD][17] searcherId [null]], size[1], lastEmittedDoc[doc=3 score=NaN shardIndex=0 fields=[7, b]]');
});
