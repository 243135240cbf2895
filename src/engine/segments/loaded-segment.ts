/**
 * One segment as the engine holds it: its readers (every file verified and in memory), its current live
 * docs, the live-docs file generation that records them, and the id filter for version lookups.
 * Live docs change only inside the engine's state lock: each change is a new LiveDocs object, so a
 * Searcher that captured the previous one keeps seeing exactly what it saw.
 */
import {
  liveDocsFileName,
  NO_MORE_DOCS,
  POSTINGS_DOCS,
  segmentFileName,
  SegmentFileExtensions,
  type LiveDocs,
  type SegmentReaders,
} from '../codec/index.js';
import { IdFilter, type IdProbe } from './id-filter.js';
import { ID_FIELD, PRIMARY_TERM_FIELD, SEQ_NO_FIELD, VERSION_FIELD } from './segment-names.js';

export interface DocVersion {
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
}

export class LoadedSegment {
  /** Generation of the live docs file matching `liveDocs` (0: no deletes written yet). */
  liveGen: number;
  liveDocs: LiveDocs | null;
  /** Byte length of the current live docs file. */
  liveBytes = 0;
  /** True once a durable commit point lists this segment. */
  committed = false;

  constructor(
    readonly readers: SegmentReaders,
    readonly idFilter: IdFilter,
    liveDocs: LiveDocs | null,
    liveGen: number,
  ) {
    this.liveDocs = liveDocs;
    this.liveGen = liveGen;
  }

  get name(): string {
    return this.readers.info.name;
  }

  get id(): Uint8Array {
    return this.readers.info.id;
  }

  get maxDoc(): number {
    return this.readers.maxDoc;
  }

  get deletedCount(): number {
    return this.liveDocs?.deletedCount ?? 0;
  }

  get numDocs(): number {
    return this.maxDoc - this.deletedCount;
  }

  /** Bytes of the segment's own files (without live docs). */
  get sizeInBytes(): number {
    let bytes = 0;
    for (const file of this.readers.info.files) bytes += file.length;
    return bytes;
  }

  /** Every file this segment currently needs: its own files, its info file and the current live docs. */
  files(): string[] {
    const names = this.readers.info.files.map((file) => file.name);
    names.push(segmentFileName(this.name, SegmentFileExtensions.segmentInfo));
    if (this.liveGen > 0) names.push(liveDocsFileName(this.name, this.liveGen));
    return names;
  }

  isLive(doc: number): boolean {
    return this.liveDocs === null || this.liveDocs.isLive(doc);
  }

  /**
   * The live document with this id, or -1. At most one document per id is live across a shard. The probe holds
   * the id's hashes, computed once for every segment (ShardSegments.lookupId).
   */
  findLiveDocProbe(probe: IdProbe): number {
    if (!this.idFilter.mayContainProbe(probe)) return -1;
    return this.seekLiveDoc(probe.bytes);
  }

  /** The live document with this id in the `_id` terms, or -1 (after the id filter said "maybe"). */
  private seekLiveDoc(idBytes: Uint8Array): number {
    const terms = this.readers.terms.terms(ID_FIELD);
    if (terms === undefined || !terms.mayContain(idBytes)) return -1;
    const state = terms.seekExact(idBytes);
    if (state === null) return -1;
    if (state.docFreq === 1) return this.isLive(state.singletonDoc) ? state.singletonDoc : -1;
    // Several documents with this id: earlier versions superseded within one indexing buffer.
    const postings = terms.postings(state, POSTINGS_DOCS);
    let found = -1;
    for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) if (this.isLive(doc)) found = doc;
    return found;
  }

  docVersion(doc: number): DocVersion {
    const values = this.readers.docValues;
    return {
      version: values.numeric(VERSION_FIELD)?.get(doc) ?? 0,
      seqNo: values.numeric(SEQ_NO_FIELD)?.get(doc) ?? -2,
      primaryTerm: values.numeric(PRIMARY_TERM_FIELD)?.get(doc) ?? 0,
    };
  }

  /** Builds the id filter from the segment's `_id` terms (segments opened from disk). */
  static buildIdFilter(readers: SegmentReaders): IdFilter {
    const filter = IdFilter.create(readers.maxDoc);
    const terms = readers.terms.terms(ID_FIELD);
    if (terms === undefined) return filter;
    const iterator = terms.iterator();
    while (iterator.next()) filter.add(iterator.term());
    return filter;
  }
}
