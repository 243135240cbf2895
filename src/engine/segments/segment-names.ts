/** Names of the per-document metadata fields and how a segment records what it holds. */
export { ID_FIELD, SOURCE_FIELD, ROUTING_FIELD, IGNORED_FIELD, SEQ_NO_FIELD, PRIMARY_TERM_FIELD, VERSION_FIELD } from '../searcher.js';

/** Segment names are `_` + a counter in base 36, as Lucene names them; the counter lives in the commit. */
export function segmentName(counter: number): string {
  return `_${counter.toString(36)}`;
}

export function parseSegmentName(name: string): number | undefined {
  const match = /^_([0-9a-z]+)$/.exec(name);
  return match === null ? undefined : parseInt(match[1]!, 36);
}
