/**
 * The Searcher the engine hands out: a frozen list of segment views (readers + the live docs of that
 * moment) with doc bases, reference counted so the files it needs outlive any later merge or delete.
 */
import type { Searcher, SegmentView } from '../searcher.js';
import type { LoadedSegment } from './loaded-segment.js';

export class SearcherView implements Searcher {
  readonly segments: readonly SegmentView[];
  readonly maxDoc: number;
  readonly numDocs: number;
  /** Holders: the engine (while this is the current searcher) plus every acquirer not yet released. */
  private refCount = 1;

  constructor(
    loaded: readonly LoadedSegment[],
    readonly generation: number,
    /** The files the view needs, released when the last holder lets go. */
    readonly files: readonly string[],
    private readonly onClose: (view: SearcherView) => void,
    /** Highest seqNo whose operation this view shows (every lower one is shown too, or superseded). */
    readonly refreshedSeqNo: number,
  ) {
    let docBase = 0;
    let numDocs = 0;
    this.segments = loaded.map((segment) => {
      const view: SegmentView = {
        readers: segment.readers,
        docBase,
        maxDoc: segment.maxDoc,
        liveDocs: segment.liveDocs,
        numDocs: segment.numDocs,
      };
      docBase += segment.maxDoc;
      numDocs += view.numDocs;
      return view;
    });
    this.maxDoc = docBase;
    this.numDocs = numDocs;
  }

  /** Another holder (an acquireSearcher call); each must release once. */
  acquire(): Searcher {
    this.refCount++;
    let released = false;
    // Each acquirer gets its own handle, so a double release by one caller cannot free another's view.
    return {
      segments: this.segments,
      maxDoc: this.maxDoc,
      numDocs: this.numDocs,
      generation: this.generation,
      release: () => {
        if (released) return;
        released = true;
        this.decRef();
      },
    };
  }

  release(): void {
    this.decRef();
  }

  decRef(): void {
    if (this.refCount <= 0) return;
    if (--this.refCount === 0) this.onClose(this);
  }
}
