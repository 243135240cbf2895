/**
 * Issue 18's measured list against a real node: each request (test/helpers/hostile-requests.ts) is sent while
 * the operator's commands (the seven of DESIGN.md: test/helpers/ops-probe.ts) are probed every 50 ms, and each test
 * asserts both ES's answer and that the probes answered with p99 under the issue's 500 ms while it ran (no probe
 * left without an answer), as under four clients searching or bulk indexing flat out. Before the fixes these requests froze the node for seconds to minutes.
 *
 * The index imitates the npm corpus under dynamic mapping (`name`, `summary` text with `.keyword`,
 * `downloads` long), smaller: what matters is what each request costs the event loop, not the corpus size.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';
import { OpsProbe, formatProbe, hostLoad, probeBoundMillis, type ProbeSummary } from '../helpers/ops-probe.js';
import { HOSTILE_CASES, words, type HostileCase } from '../helpers/hostile-requests.js';

let node: NodeProcess;
const INDEX = 'npm';
const DOCS = 20_000;

const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'hostile-node' } });
  const created = await node.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
  const vocabulary = words(3000, 6);
  for (let start = 0; start < DOCS; start += 5000) {
    const lines: string[] = [];
    for (let i = start; i < start + 5000; i++) {
      const summary = Array.from({ length: 8 }, (_, k) => vocabulary[(i * 31 + k * 977) % vocabulary.length]).join(' ');
      lines.push('{"index":{}}', JSON.stringify({ name: `${vocabulary[i % vocabulary.length]}-${i}`, version: `1.${i % 10}.0`, downloads: i * 7, summary }));
    }
    const bulk = await node.request('POST', `/${INDEX}/_bulk`, { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false, bulk.text.slice(0, 300));
  }
  assert.equal((await node.request('POST', `/${INDEX}/_refresh`)).status, 200);
});

after(async () => {
  await node.stop();
});

function hostile(name: string): HostileCase {
  const found = HOSTILE_CASES.find((candidate) => candidate.name.startsWith(name));
  assert.ok(found, `no hostile case named ${name}`);
  return found;
}

/** Runs `work` while probing the operator's commands; asserts they kept answering within the bound. */
async function whileProbing<T>(work: () => Promise<T>): Promise<{ value: T; millis: number; probes: ProbeSummary }> {
  const probe = OpsProbe.start({ port: node.port, intervalMillis: 50 });
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    // A last round of probes after the request, so a node that answered the culprit but is still busy shows.
    await sleep(200);
  }
  const probes = probe.stop();
  const millis = performance.now() - started;
  assert.equal(probes.failed, 0, `operator commands failed: ${formatProbe(probes)}`);
  // The 500 ms, stretched only on an oversubscribed host (probeBoundMillis says why and how far).
  const bound = probeBoundMillis();
  assert.ok(probes.p99Millis < bound, `operator commands p99 ${probes.p99Millis.toFixed(0)} ms >= ${bound.toFixed(0)} ms (${hostLoad()}): ${formatProbe(probes)}`);
  return { value, millis, probes };
}

function shardFailureCause(result: HttpResult): any {
  return result.body?.error?.failed_shards?.[0]?.reason;
}

test('regexp [a-z]{1,50}{1,50} is refused as too complex to determinize while the node answers', async () => {
  const { value: [result] } = await whileProbing(() => hostile('regexp [a-z]').send(node.port, INDEX));
  assert.equal(result!.status, 400, result!.text);
  assert.equal(result!.body.error.type, 'search_phase_execution_exception');
  const cause = shardFailureCause(result!);
  assert.equal(cause.type, 'query_shard_exception');
  assert.equal(cause.reason, 'failed to create query: Determinizing [a-z]{1,50}{1,50} would require more than 10000 effort.');
  assert.equal(cause.caused_by.type, 'too_complex_to_determinize_exception');
});

test('regexp .*a.{30} is refused as too complex to determinize while the node answers', async () => {
  const { value: [result] } = await whileProbing(() => hostile('regexp .*').send(node.port, INDEX));
  assert.equal(result!.status, 400, result!.text);
  assert.equal(shardFailureCause(result!).caused_by.reason, 'Determinizing .*a.{30} would require more than 10000 effort.');
});

test('a regexp within the limit still matches (and max_determinized_states tightens the limit)', async () => {
  const ok = await node.request('POST', `/${INDEX}/_search?size=0`, { body: { track_total_hits: true, query: { regexp: { 'name.keyword': '[a-z]{1,6}-1[0-9]' } } } });
  assert.equal(ok.status, 200, ok.text);
  assert.ok(ok.body.hits.total.value > 0);
  const tight = await node.request('POST', `/${INDEX}/_search`, { body: { query: { regexp: { 'name.keyword': { value: '[a-z]{1,6}-1[0-9]', max_determinized_states: 1 } } } } });
  assert.equal(tight.status, 400, tight.text);
  assert.match(shardFailureCause(tight).reason, /would require more than 1 effort\.$/);
});

test('simple_query_string of 50,000 terms is refused by the clause limit while the node answers', async () => {
  const { value: [result] } = await whileProbing(() => hostile('simple_query_string').send(node.port, INDEX));
  assert.equal(result!.status, 400, result!.text);
  const cause = shardFailureCause(result!);
  assert.equal(cause.type, 'illegal_argument_exception');
  assert.equal(cause.reason, 'Query rewrite failed: too many clauses');
  assert.equal(cause.caused_by.type, 'too_many_nested_clauses');
  assert.match(cause.caused_by.reason, /^Query contains too many nested clauses; maxClauseCount is set to \d+$/);
});

test('match with fuzziness AUTO over 200 words answers while the node answers', async () => {
  const { value: [result] } = await whileProbing(() => hostile('match fuzziness').send(node.port, INDEX));
  assert.equal(result!.status, 200, result!.text);
  // Words of the index's own vocabulary, one edit away, find documents.
  const vocabulary = words(3000, 6);
  const typos = vocabulary.slice(0, 50).map((word) => `${word.slice(0, 3)}x${word.slice(4)}`);
  const found = await node.request('POST', `/${INDEX}/_search?size=1`, { body: { query: { match: { summary: { query: typos.join(' '), fuzziness: 'AUTO' } } } } });
  assert.equal(found.status, 200, found.text);
  assert.ok(found.body.hits.total.value > 0);
});

test('update_by_query with a 999,999-iteration script runs off the event loop and its cancel returns at once', async () => {
  await whileProbing(async () => {
    const started = await node.request('POST', `/${INDEX}/_update_by_query?scroll_size=100&conflicts=proceed&wait_for_completion=false`, {
      body: { script: { source: 'def x = 0; for (def i = 0; i < 999999; i++) { x += 1 } ctx._source.loops = x' } },
    });
    assert.equal(started.status, 200, started.text);
    const taskId: string = started.body.task;
    await sleep(3000);
    const running = await node.request('GET', `/_tasks/${taskId}`);
    assert.equal(running.body.completed, false, 'the script should still be running after three seconds');
    const cancelStarted = performance.now();
    const cancel = await node.request('POST', `/_tasks/${taskId}/_cancel`);
    const cancelMillis = performance.now() - cancelStarted;
    assert.equal(cancel.status, 200, cancel.text);
    assert.ok(cancelMillis < probeBoundMillis(), `the cancel took ${cancelMillis.toFixed(0)} ms (${hostLoad()})`);
    for (let attempt = 0; attempt < 100; attempt++) {
      const done = await node.request('GET', `/_tasks/${taskId}`);
      if (done.body.completed === true) {
        assert.match(JSON.stringify(done.body.response ?? done.body), /canceled|cancelled/i);
        return;
      }
      await sleep(100);
    }
    assert.fail('the cancelled update_by_query did not finish within ten seconds');
  });
});

test('a document with a 400,000-int array in a new field is indexed while the node answers', { timeout: 300_000 }, async () => {
  const { value: [result] } = await whileProbing(() => hostile('document, 400,000').send(node.port, INDEX));
  assert.equal(result!.status, 201, result!.text);
  const mapping = await node.request('GET', `/${INDEX}-ints/_mapping`);
  assert.equal(mapping.body[`${INDEX}-ints`].mappings.properties.ints400k.type, 'long');
});

test('a document with 5,000,000 ints is indexed while the node answers', { timeout: 600_000 }, async () => {
  const { value: [result] } = await whileProbing(() => hostile('document, 5,000,000').send(node.port, INDEX));
  assert.equal(result!.status, 201, result!.text);
  assert.equal((await node.request('POST', `/${INDEX}-ints/_refresh`)).status, 200);
  const count = await node.request('POST', `/${INDEX}-ints/_search?size=0`, { body: { query: { term: { ints5m: 7 } } } });
  assert.equal(count.status, 200);
  assert.equal(count.body.hits.total.value, 1);
});

test('a 2,000,000-digit integer literal is refused as Jackson refuses it, at once', async () => {
  const { value: [result], millis } = await whileProbing(() => hostile('document, 2M').send(node.port, INDEX));
  assert.equal(result!.status, 400, result!.text);
  assert.equal(result!.body.error.type, 'document_parsing_exception');
  assert.equal(result!.body.error.reason, '[1:9] failed to parse: Number value length (2000000) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNumberLength()`)');
  assert.equal(result!.body.error.caused_by.type, 'stream_constraints_exception');
  assert.ok(millis < 10_000, `took ${millis.toFixed(0)} ms`);
});

test('100 sibling terms aggregations of size 60,000 fail with too_many_buckets as buckets are created', async () => {
  const { value: [result], millis } = await whileProbing(() => hostile('100 terms aggs').send(node.port, INDEX));
  assert.equal(result!.status, 400, result!.text);
  assert.equal(result!.body.error.root_cause[0].type, 'too_many_buckets_exception');
  assert.equal(
    result!.body.error.root_cause[0].reason,
    'Trying to create too many buckets. Must be less than or equal to: [65536] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.',
  );
  assert.ok(millis < 30_000, `took ${millis.toFixed(0)} ms`);
});

test('the search pool reports what ran on it (the stats _cat/thread_pool reads)', async () => {
  const stats = await node.request('GET', '/_nodes/stats/thread_pool');
  assert.equal(stats.status, 200, stats.text);
  // The shard-level work ran on the nodes holding the shards: this one alone, or in cluster mode any of them.
  const everyNode = Object.values(stats.body.nodes).map((one: any) => one.thread_pool);
  const completed = (pool: string) => everyNode.reduce((sum, pools) => sum + pools[pool].completed, 0);
  assert.ok(completed('search') > 0, JSON.stringify(everyNode.map((pools) => pools.search)));
  assert.ok(completed('write') > 0, JSON.stringify(everyNode.map((pools) => pools.write)));
  const pools = (stats.body.nodes[node.nodeId] as any).thread_pool;
  for (const name of ['search', 'write', 'get', 'management', 'generic', 'analyze', 'force_merge']) {
    assert.deepEqual(Object.keys(pools[name]), ['threads', 'queue', 'active', 'rejected', 'largest', 'completed'], name);
  }
});

test('probes over a quiet node are fast (the baseline the other tests are measured against)', async () => {
  const { probes } = await whileProbing(() => sleep(1000));
  assert.ok(probes.count >= 15, formatProbe(probes));
});

/** Runs `send` from four clients back to back for `millis` while probing; returns the answers' statuses. */
async function fourClientsFor(millis: number, send: (client: number, i: number) => Promise<HttpResult>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const ends = performance.now() + millis;
  await Promise.all(
    Array.from({ length: 4 }, async (_, client) => {
      for (let i = 0; performance.now() < ends; i++) {
        const answer = await send(client, i);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

test('under four clients searching with aggregations flat out, the operator commands answer (the turn budget)', { timeout: 120_000 }, async () => {
  // Before the shared turn budget (decision 0015) every search slice ran in every turn of the loop: p50 1-3 s.
  const { value: statuses } = await whileProbing(() =>
    fourClientsFor(4000, (client, i) =>
      node.request('POST', `/${INDEX}/_search`, {
        body: {
          query: { match: { summary: words(3000, 6)[(client * 31 + i * 7) % 3000] } },
          aggs: { names: { terms: { field: 'name.keyword', size: 50 } }, downloads: { histogram: { field: 'downloads', interval: 10_000 } }, versions: { terms: { field: 'version.keyword' } } },
        },
      }),
    ),
  );
  assert.deepEqual([...statuses.keys()], [200]);
});

test('under four clients bulk indexing flat out, the operator commands answer', { timeout: 120_000 }, async () => {
  const { value: statuses } = await whileProbing(() =>
    fourClientsFor(4000, (client, i) => {
      const lines: string[] = [];
      for (let k = 0; k < 1000; k++) lines.push('{"index":{}}', JSON.stringify({ name: `load-${client}-${i}-${k}`, downloads: k, summary: `bulk load ${client} ${i} ${k}` }));
      return node.request('POST', `/${INDEX}-load/_bulk`, { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    }),
  );
  assert.deepEqual([...statuses.keys()], [200]);
});

test('fuzzy max_expansions (default 50) bounds the terms each fuzzy term expands to, per term of a match', async () => {
  // Sixty-nine indexed terms one edit away from each of two words, one document each.
  const alphabet = 'abcdeghijklmnopqrstuvwxyz0123456789';
  const neighbours = (word: string): string[] => [
    ...[...alphabet].filter((c) => c !== word[5]).map((c) => word.slice(0, 5) + c),
    ...[...alphabet].filter((c) => c !== word[4]).map((c) => word.slice(0, 4) + c + word[5]),
  ];
  const lines = [...neighbours('abcdef'), ...neighbours('ghijkl')].flatMap((term) => ['{"index":{}}', JSON.stringify({ body: term })]);
  const bulk = await node.request('POST', '/fuzzy-expansions/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false, bulk.text.slice(0, 300));
  const total = async (query: unknown): Promise<number> => {
    const answer = await node.request('POST', '/fuzzy-expansions/_search?size=0', { body: { track_total_hits: true, query } });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.hits.total.value;
  };
  assert.equal(await total({ fuzzy: { body: 'abcdef' } }), 50);
  assert.equal(await total({ fuzzy: { body: { value: 'abcdef', max_expansions: 3 } } }), 3);
  assert.equal(await total({ match: { body: { query: 'abcdef ghijkl', fuzziness: 'AUTO' } } }), 100);
  assert.equal(await total({ match: { body: { query: 'abcdef ghijkl', fuzziness: 'AUTO', max_expansions: 3 } } }), 6);
});
