/**
 * The ip_prefix aggregation over HTTP against a real node (two shards, so shard results are merged), with the
 * answers ES 8.19 gives (search.aggregation/450_ip_prefix.yml's data; IpPrefixAggregator, InternalIpPrefix):
 * IPv4 and IPv6 networks, `append_prefix_length`, `keyed`, `min_doc_count`, sub-aggregations, an address family
 * mismatch masked as ES masks it, and ES's errors for bad lengths and non-ip fields.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'ip-prefix-node' } });
  const created = await node.request('PUT', '/traffic', {
    body: {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { ipv4: { type: 'ip' }, ipv6: { type: 'ip' }, value: { type: 'long' }, host: { type: 'keyword' } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  const docs: Array<[string, string, number]> = [
    ['192.168.1.10', '2001:db8:a4f8:112a:6001:0:12:7f10', 10],
    ['192.168.1.12', '2001:db8:a4f8:112a:6001:0:12:7f12', 20],
    ['192.168.1.33', '2001:db8:a4f8:112a:6001:0:12:7f33', 40],
    ['192.168.1.10', '2001:db8:a4f8:112a:6001:0:12:7f10', 20],
    ['192.168.1.33', '2001:db8:a4f8:112a:6001:0:12:7f33', 70],
    ['192.168.2.41', '2001:db8:a4f8:112c:6001:0:12:7f41', 20],
    ['192.168.2.10', '2001:db8:a4f8:112c:6001:0:12:7f10', 30],
    ['192.168.2.23', '2001:db8:a4f8:112c:6001:0:12:7f23', 50],
    ['192.168.2.41', '2001:db8:a4f8:112c:6001:0:12:7f41', 60],
    ['192.168.2.10', '2001:db8:a4f8:112c:6001:0:12:7f10', 10],
  ];
  const lines = docs.flatMap(([ipv4, ipv6, value], i) => [JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ ipv4, ipv6, value })]);
  const bulk = await node.request('POST', '/traffic/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, bulk.text);
  assert.equal(bulk.body.errors, false);
});
after(async () => {
  await node.stop();
});

async function aggs(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: body } });
  assert.equal(res.status, 200, res.text);
  return res.body.aggregations;
}

test('IPv4 networks: key, netmask, doc_count, is_ipv6, prefix_length in ES order, sorted by network', async () => {
  const result = await aggs({ nets: { ip_prefix: { field: 'ipv4', prefix_length: 24 } } });
  assert.deepEqual(result['nets'].buckets, [
    { key: '192.168.1.0', netmask: '255.255.255.0', doc_count: 5, is_ipv6: false, prefix_length: 24 },
    { key: '192.168.2.0', netmask: '255.255.255.0', doc_count: 5, is_ipv6: false, prefix_length: 24 },
  ]);
  assert.deepEqual(Object.keys(result['nets'].buckets[0]), ['key', 'netmask', 'doc_count', 'is_ipv6', 'prefix_length']);
  const short = await aggs({ first: { ip_prefix: { field: 'ipv4', prefix_length: 13 } }, second: { ip_prefix: { field: 'ipv4', prefix_length: 6 } } });
  assert.deepEqual(short['first'].buckets, [{ key: '192.168.0.0', netmask: '255.248.0.0', doc_count: 10, is_ipv6: false, prefix_length: 13 }]);
  assert.deepEqual(short['second'].buckets, [{ key: '192.0.0.0', netmask: '252.0.0.0', doc_count: 10, is_ipv6: false, prefix_length: 6 }]);
});

test('IPv6 networks with a metric sub-aggregation, appended lengths and keyed buckets', async () => {
  const result = await aggs({ nets: { ip_prefix: { field: 'ipv6', is_ipv6: true, prefix_length: 64 }, aggs: { total: { sum: { field: 'value' } } } } });
  assert.deepEqual(result['nets'].buckets, [
    { key: '2001:db8:a4f8:112a::', doc_count: 5, is_ipv6: true, prefix_length: 64, total: { value: 160 } },
    { key: '2001:db8:a4f8:112c::', doc_count: 5, is_ipv6: true, prefix_length: 64, total: { value: 170 } },
  ]);
  const keyed = await aggs({ nets: { ip_prefix: { field: 'ipv4', prefix_length: 24, append_prefix_length: true, keyed: true } } });
  assert.deepEqual(keyed['nets'].buckets, {
    '192.168.1.0/24': { netmask: '255.255.255.0', doc_count: 5, is_ipv6: false, prefix_length: 24 },
    '192.168.2.0/24': { netmask: '255.255.255.0', doc_count: 5, is_ipv6: false, prefix_length: 24 },
  });
  const nested = await aggs({ top: { ip_prefix: { field: 'ipv6', is_ipv6: true, prefix_length: 48 }, aggs: { sub: { ip_prefix: { field: 'ipv6', is_ipv6: true, prefix_length: 64, append_prefix_length: true } } } } });
  assert.equal(nested['top'].buckets[0].key, '2001:db8:a4f8::');
  assert.deepEqual(nested['top'].buckets[0].sub.buckets.map((b: { key: string }) => b.key), ['2001:db8:a4f8:112a::/64', '2001:db8:a4f8:112c::/64']);
});

test('a family mismatch masks as ES does; min_doc_count drops small networks after the merge', async () => {
  // IPv4 addresses are stored as 16 bytes: an IPv6 /24 of them is all zeros; an IPv4 /16 of IPv6 addresses reads their low 32 bits.
  assert.deepEqual((await aggs({ n: { ip_prefix: { field: 'ipv4', is_ipv6: true, prefix_length: 24 } } }))['n'].buckets, [{ key: '::', doc_count: 10, is_ipv6: true, prefix_length: 24 }]);
  assert.deepEqual((await aggs({ n: { ip_prefix: { field: 'ipv6', prefix_length: 16 } } }))['n'].buckets, [{ key: '0.18.0.0', netmask: '255.255.0.0', doc_count: 10, is_ipv6: false, prefix_length: 16 }]);
  const filtered = await aggs({ n: { ip_prefix: { field: 'ipv4', prefix_length: 32, min_doc_count: 2 } } });
  assert.deepEqual(
    filtered['n'].buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count]),
    [['192.168.1.10', 2], ['192.168.1.33', 2], ['192.168.2.10', 2], ['192.168.2.41', 2]],
  );
});

test('bad lengths and non-ip fields are ES errors', async () => {
  const tooLong = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: { n: { ip_prefix: { field: 'ipv4', prefix_length: 44 } } } } });
  assert.equal(tooLong.status, 400, tooLong.text);
  assert.equal(tooLong.body.error.root_cause[0].reason, '[prefix_length] must be in range [0, 32] while value is [44]');
  const tooLong6 = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: { n: { ip_prefix: { field: 'ipv6', is_ipv6: true, prefix_length: 170 } } } } });
  assert.equal(tooLong6.body.error.root_cause[0].reason, '[prefix_length] must be in range [0, 128] while value is [170]');
  const negative = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: { n: { ip_prefix: { field: 'ipv4', prefix_length: -1 } } } } });
  assert.equal(negative.status, 400, negative.text);
  assert.equal(negative.body.error.type, 'x_content_parse_exception');
  assert.equal(negative.body.error.reason, '[ip_prefix] failed to parse field [prefix_length]');
  assert.equal(negative.body.error.caused_by.reason, '[prefix_length] must be in range [0, 32] while value is [-1]');
  const minDocs = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: { n: { ip_prefix: { field: 'ipv4', prefix_length: 8, min_doc_count: 0 } } } } });
  assert.equal(minDocs.body.error.caused_by.reason, '[min_doc_count] must be in range [1, 2147483647] while value is [0]');
  const keyword = await node.request('POST', '/traffic/_search', { body: { size: 0, aggs: { n: { ip_prefix: { field: 'host', prefix_length: 8 } } } } });
  assert.equal(keyword.status, 400, keyword.text);
  assert.equal(keyword.body.error.root_cause[0].reason, 'Field [host] of type [keyword] is not supported for aggregation [ip_prefix]');
});
