/**
 * Compare-and-set under concurrency: many clients race conditional writes (`if_seq_no`/`if_primary_term`) on
 * the same document; for every sequence number exactly one wins and the rest get 409. Read-modify-write
 * clients that retry on conflict never lose an increment.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'cas-node' } });
  await node.request('PUT', '/cas', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
});
after(async () => {
  await node.stop();
});

test('exactly one conditional write wins per sequence number', async () => {
  let current = await node.request('PUT', '/cas/_doc/race', { body: { round: -1 } });
  for (let round = 0; round < 10; round++) {
    const { _seq_no: seqNo, _primary_term: term } = current.body;
    const attempts = await Promise.all(
      Array.from({ length: 16 }, (_, client) =>
        node.request('PUT', `/cas/_doc/race?if_seq_no=${seqNo}&if_primary_term=${term}`, { body: { round, client } }),
      ),
    );
    const winners = attempts.filter((res) => res.status === 200);
    const losers = attempts.filter((res) => res.status === 409);
    assert.equal(winners.length, 1, `round ${round}: ${attempts.map((res) => res.status).join(',')}`);
    assert.equal(losers.length, 15);
    for (const loser of losers) assert.equal(loser.body.error.type, 'version_conflict_engine_exception');
    const stored = await node.request('GET', '/cas/_doc/race');
    assert.equal(stored.body._seq_no, winners[0]!.body._seq_no);
    assert.deepEqual(stored.body._source, { round, client: attempts.indexOf(winners[0]!) }, 'the stored document is the winner\'s');
    current = winners[0]!;
  }
});

test('conditional deletes and updates race the same way', async () => {
  const created = await node.request('PUT', '/cas/_doc/del', { body: { v: 1 } });
  const deletes = await Promise.all(
    Array.from({ length: 8 }, () => node.request('DELETE', `/cas/_doc/del?if_seq_no=${created.body._seq_no}&if_primary_term=1`)),
  );
  assert.equal(deletes.filter((res) => res.status === 200).length, 1);
  assert.equal(deletes.filter((res) => res.status === 409).length, 7);
  const base = await node.request('PUT', '/cas/_doc/upd', { body: { v: 0 } });
  const updates = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      node.request('POST', `/cas/_update/upd?if_seq_no=${base.body._seq_no}&if_primary_term=1`, { body: { doc: { v: i + 1 } } }),
    ),
  );
  assert.equal(updates.filter((res) => res.status === 200).length, 1);
  assert.equal(updates.filter((res) => res.status === 409).length, 7);
});

test('read-modify-write clients with CAS retries lose no increment', async () => {
  await node.request('PUT', '/cas/_doc/counter', { body: { count: 0 } });
  const clients = 8;
  const perClient = 10;
  let conflicts = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let done = 0; done < perClient; ) {
        const current = await node.request('GET', '/cas/_doc/counter');
        const { _seq_no: seqNo, _primary_term: term } = current.body;
        const res = await node.request('PUT', `/cas/_doc/counter?if_seq_no=${seqNo}&if_primary_term=${term}`, {
          body: { count: current.body._source.count + 1 },
        });
        if (res.status === 200) done++;
        else {
          assert.equal(res.status, 409);
          conflicts++;
        }
      }
    }),
  );
  const final = await node.request('GET', '/cas/_doc/counter');
  assert.equal(final.body._source.count, clients * perClient);
  assert.equal(final.body._version, clients * perClient + 1);
  assert.ok(conflicts >= 0);
});

test('concurrent updates with retry_on_conflict all apply', async () => {
  await node.request('PUT', '/cas/_doc/fields', { body: {} });
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => node.request('POST', '/cas/_update/fields?retry_on_conflict=20', { body: { doc: { [`f${i}`]: i } } })),
  );
  assert.ok(results.every((res) => res.status === 200), results.map((res) => res.status).join(','));
  const doc = await node.request('GET', '/cas/_source/fields');
  assert.equal(Object.keys(doc.body).length, 12);
});

test('concurrent first writes to a new index create it once; concurrent new fields all map', async () => {
  const writes = await Promise.all(Array.from({ length: 10 }, (_, i) => node.request('PUT', `/fresh/_doc/${i}`, { body: { [`field_${i}`]: i } })));
  assert.ok(writes.every((res) => res.status === 201), writes.map((res) => res.text).join('\n'));
  const mapping = await node.request('GET', '/fresh/_mapping');
  assert.equal(Object.keys(mapping.body.fresh.mappings.properties).length, 10);
  const conflicting = await Promise.all([
    node.request('PUT', '/fresh/_doc/a', { body: { clash: 1 } }),
    node.request('PUT', '/fresh/_doc/b', { body: { clash: 'text' } }),
  ]);
  const statuses = conflicting.map((res) => res.status).sort();
  // Whichever mapping wins, the other document is judged against it (a string into a long fails; 1 into text is fine).
  assert.ok(statuses.every((status) => status === 201 || status === 400), statuses.join(','));
});
