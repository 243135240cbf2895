/**
 * A small corpus indexed with the field names of the DSL tests' mapping (../dsl/helpers.ts), so queries run
 * end to end: JSON -> parser -> plan -> execution query -> hits, with ES's legacy BM25.
 */
import { BM25Similarity, IndexSearcher, type Query } from '../../../../src/search/index.js';
import { buildTopLevelQuery, parseQuery, toExecutionQuery } from '../../../../src/search/dsl/index.js';
import { context } from '../dsl/helpers.js';
import { buildSearcher, type Mappings, type TestDoc } from '../helpers/test-indexer.js';

export const DSL_MAPPINGS: Mappings = {
  title: { type: 'text' },
  nopos: { type: 'text' },
  tag: { type: 'keyword' },
  age: { type: 'long' },
  price: { type: 'double' },
  date: { type: 'date' },
};

export const DSL_DOCS: TestDoc[] = [
  { id: '0', source: { title: 'quick fox', nopos: 'lazy dog', tag: ['a'], age: 10, price: 1.5, date: '2020-01-10T00:00:00Z' } },
  { id: '1', source: { title: 'quick quick dog', nopos: 'fox fox', tag: ['a', 'b'], age: 20, price: 3, date: '2020-01-15T00:00:00Z' } },
  { id: '2', source: { title: 'lazy fox jumps', nopos: 'fox', tag: ['b'], age: [5, 30], price: 0.5, date: '2020-01-20T00:00:00Z' } },
  { id: '3', source: { title: 'quick', nopos: 'fox dog', tag: [], price: 10 } },
  { id: '4', source: { title: 'dog', nopos: 'cat', tag: ['c'], age: 40, date: '2019-12-31T00:00:00Z' } },
];

export async function dslSearcher(): Promise<IndexSearcher> {
  return new IndexSearcher(await buildSearcher([DSL_DOCS], DSL_MAPPINGS), { similarity: new BM25Similarity({ legacyK1Factor: true }) });
}

/** The execution query ES's builders would make of a query body. */
export function executionQuery(body: object): Query {
  return toExecutionQuery(buildTopLevelQuery(parseQuery(body as never), context()));
}

/** `doc -> score` of every hit. */
export function scores(searcher: IndexSearcher, body: object): Map<number, number> {
  const query = executionQuery(body);
  return new Map(searcher.topDocs(query, 100).scoreDocs.map((hit) => [hit.doc, hit.score]));
}
