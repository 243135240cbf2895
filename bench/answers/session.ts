/**
 * The requests whose answers Gannet and a server peer are compared on: the seven operational commands (and the
 * errors an operator meets around them), then the README's examples in the README's order, each step able to
 * use what an earlier answer said (a task id, a node id). Every server runs the same session from an empty node.
 */

export interface SessionContext {
  /** The node id of the server under test (from `GET /_nodes/_local`). */
  nodeId: string;
  /** The last task id a step remembered (`{"task":"<node>:<n>"}`). */
  task?: string;
}

export interface Step {
  /** Where the request comes from: "ops" (DESIGN.md's seven and their errors) or a README section. */
  section: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  path: string | ((context: SessionContext) => string);
  body?: string;
  contentType?: string;
  /** Reads what later steps need from this answer. */
  remember?: (body: any, context: SessionContext) => void;
  /** Waits this long before the request (a throttled task has to get going, a cancel to settle). */
  waitMs?: number;
}

const json = 'application/json';
const ndjson = 'application/x-ndjson';
const taskPath = (suffix: string) => (context: SessionContext) => `/_tasks/${context.task}${suffix}`;
const rememberTask = (body: any, context: SessionContext) => {
  if (typeof body?.task === 'string') context.task = body.task;
};

const BOOKS_BULK =
  '{"index":{"_id":"1"}}\n{"title":"Dune","author":"Frank Herbert","year":1965,"tags":["sf","desert"]}\n' +
  '{"index":{"_id":"2"}}\n{"title":"Dune Messiah","author":"Frank Herbert","year":1969,"tags":["sf"]}\n' +
  '{"index":{"_id":"3"}}\n{"title":"The Left Hand of Darkness","author":"Ursula K. Le Guin","year":1969,"tags":["sf","winter"]}\n' +
  '{"index":{"_id":"4"}}\n{"title":"A Wizard of Earthsea","author":"Ursula K. Le Guin","year":1968,"tags":["fantasy"]}\n' +
  '{"index":{"_id":"5"}}\n{"title":"The Dispossessed","author":"Ursula K. Le Guin","year":1974,"tags":["sf"]}\n';

/** A reindex throttled to one document a second: alive long enough to be listed and cancelled. */
const SLOW_REINDEX = '{"source":{"index":"books","size":1},"dest":{"index":"books-slow"}}';

const STEPS: Step[] = [
  { section: 'root', method: 'GET', path: '/' },
  // The seven commands on an empty node, then with an index and a running task.
  { section: 'ops', method: 'GET', path: '/_cluster/health?pretty=true' },
  { section: 'ops', method: 'GET', path: '/_cat/allocation?v' },
  { section: 'ops', method: 'GET', path: '/_cat/nodes?v' },
  { section: 'ops', method: 'GET', path: '/_tasks?pretty=true' },
  { section: 'ops', method: 'GET', path: '/_cat/tasks?v=true' },
  { section: 'ops', method: 'GET', path: '/_cluster/health?wait_for_nodes=10&timeout=1ms' },
  { section: 'ops', method: 'GET', path: '/_cluster/health/missing-index?timeout=1ms' },
  { section: 'ops', method: 'GET', path: '/_cat/nodes?help' },
  { section: 'ops', method: 'GET', path: '/_cat/allocation?help' },
  { section: 'ops', method: 'GET', path: '/_cat/tasks?help' },
  { section: 'ops', method: 'GET', path: '/_cat/nodes?bogus=1' },
  { section: 'ops', method: 'GET', path: '/_cat/nodes?format=json&h=name,master,node.role' },
  { section: 'ops', method: 'GET', path: '/_cat/allocation?format=json&bytes=b' },
  { section: 'ops', method: 'POST', path: '/_tasks/not-a-task-id/_cancel' },
  { section: 'ops', method: 'POST', path: (c) => `/_tasks/${c.nodeId}:999999/_cancel` },
  { section: 'ops', method: 'GET', path: (c) => `/_tasks/${c.nodeId}:999999` },
  { section: 'ops', method: 'POST', path: '/_tasks/_cancel?actions=*reindex' },
  // README, "Index and search".
  {
    section: 'readme: index and search',
    method: 'PUT',
    path: '/books',
    body: '{"settings":{"number_of_shards":2,"number_of_replicas":0},"mappings":{"properties":{"title":{"type":"text"},"author":{"type":"keyword"},"year":{"type":"integer"},"tags":{"type":"keyword"}}}}',
  },
  { section: 'readme: index and search', method: 'POST', path: '/books/_bulk?refresh=true', body: BOOKS_BULK, contentType: ndjson },
  { section: 'readme: index and search', method: 'GET', path: '/books/_doc/1?pretty' },
  { section: 'readme: index and search', method: 'GET', path: '/books/_search?q=title:dune&pretty' },
  { section: 'readme: index and search', method: 'GET', path: '/books/_search?pretty', body: '{"query":{"match":{"title":"dune messiah"}}}' },
  { section: 'readme: index and search', method: 'GET', path: '/books/_search?pretty', body: '{"query":{"match_phrase":{"title":"left hand"}},"highlight":{"fields":{"title":{}}}}' },
  {
    section: 'readme: index and search',
    method: 'GET',
    path: '/books/_search?pretty',
    body: '{"query":{"bool":{"must":{"match":{"tags":"sf"}},"filter":{"range":{"year":{"gte":1966}}}}},"sort":[{"year":"desc"}]}',
  },
  {
    section: 'readme: index and search',
    method: 'GET',
    path: '/books/_search?pretty',
    body: '{"size":0,"aggs":{"authors":{"terms":{"field":"author"},"aggs":{"first":{"min":{"field":"year"}}}},"per_decade":{"histogram":{"field":"year","interval":10}}}}',
  },
  { section: 'readme: index and search', method: 'GET', path: '/books/_count?q=tags:sf' },
  {
    section: 'readme: index and search',
    method: 'POST',
    path: '/books/_update/1?refresh=true',
    body: '{"script":{"source":"ctx._source.tags.add(params.tag)","params":{"tag":"classic"}}}',
  },
  { section: 'readme: index and search', method: 'GET', path: '/_cat/indices?v' },
  // The seven commands again, now with shards and a running, throttled task.
  { section: 'ops', method: 'POST', path: '/_reindex?wait_for_completion=false&requests_per_second=1', body: SLOW_REINDEX, remember: rememberTask },
  { section: 'ops', method: 'GET', path: '/_cluster/health?pretty=true', waitMs: 1500 },
  { section: 'ops', method: 'GET', path: '/_cluster/health/books?level=shards' },
  { section: 'ops', method: 'GET', path: '/_cat/allocation?v' },
  { section: 'ops', method: 'GET', path: '/_tasks?actions=*reindex&detailed=true' },
  { section: 'ops', method: 'GET', path: '/_tasks?actions=*reindex&group_by=parents' },
  { section: 'ops', method: 'GET', path: '/_tasks?actions=*reindex&group_by=none' },
  { section: 'ops', method: 'GET', path: '/_cat/tasks?v=true&actions=*reindex&detailed' },
  { section: 'ops', method: 'GET', path: taskPath('') },
  { section: 'ops', method: 'POST', path: taskPath('/_cancel') },
  { section: 'ops', method: 'GET', path: taskPath('?wait_for_completion=true&timeout=10s') },
  { section: 'ops', method: 'POST', path: '/_reindex?wait_for_completion=false&requests_per_second=1', body: SLOW_REINDEX, remember: rememberTask },
  { section: 'ops', method: 'POST', path: (c) => `/_tasks/_cancel?nodes=${c.nodeId}&actions=*reindex`, waitMs: 1500 },
  { section: 'ops', method: 'GET', path: taskPath('?wait_for_completion=true&timeout=10s') },
  // README, "Reindex, watch, throttle, cancel".
  {
    section: 'readme: reindex',
    method: 'POST',
    path: '/_reindex?wait_for_completion=false&requests_per_second=2',
    body: '{"source":{"index":"books","size":1},"dest":{"index":"books-copy"}}',
    remember: rememberTask,
  },
  { section: 'readme: reindex', method: 'GET', path: taskPath('?pretty'), waitMs: 1000 },
  { section: 'readme: reindex', method: 'GET', path: '/_cat/tasks?v&detailed&actions=*reindex' },
  { section: 'readme: reindex', method: 'POST', path: (c) => `/_reindex/${c.task}/_rethrottle?requests_per_second=1` },
  { section: 'readme: reindex', method: 'POST', path: '/_tasks/_cancel?actions=*reindex&wait_for_completion=true&pretty' },
  { section: 'readme: reindex', method: 'GET', path: taskPath('?pretty') },
  {
    section: 'readme: reindex',
    method: 'POST',
    path: '/books/_update_by_query?conflicts=proceed&refresh=true',
    body: '{"query":{"term":{"author":"Frank Herbert"}},"script":{"source":"ctx._source.year += 1"}}',
  },
  { section: 'readme: reindex', method: 'POST', path: '/books/_delete_by_query', body: '{"query":{"range":{"year":{"lt":1967}}}}' },
];

export const SESSION: Step[] = STEPS.map((step) => ({ contentType: json, ...step }));
