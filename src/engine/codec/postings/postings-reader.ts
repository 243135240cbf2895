/** Opens the doc and positions files of a segment and hands out postings cursors over them. */
import { errors } from '../../../common/errors.js';
import { openCodecFile, type OpenedCodecFile } from '../codec-file.js';
import { BlockPostingsEnum } from './block-postings-enum.js';
import type { PostingsEnum } from './postings-enum.js';
import {
  POSTINGS_DOC_CODEC,
  POSTINGS_POS_CODEC,
  POSTINGS_VERSION_CURRENT,
  POSTINGS_VERSION_PACKED_POSITIONS,
  POSTINGS_VERSION_START,
  type PostingsFlags,
  type TermState,
} from './postings-format.js';

export class PostingsReader {
  private readonly docFile: OpenedCodecFile;
  private readonly posFile: OpenedCodecFile;

  constructor(docBytes: Buffer, docResource: string, posBytes: Buffer, posResource: string, segmentId: Uint8Array) {
    const versions = { minVersion: POSTINGS_VERSION_START, maxVersion: POSTINGS_VERSION_CURRENT, segmentId };
    this.docFile = openCodecFile(docBytes, docResource, { codec: POSTINGS_DOC_CODEC, ...versions });
    this.posFile = openCodecFile(posBytes, posResource, { codec: POSTINGS_POS_CODEC, ...versions });
    // The doc file's skip entries describe the positions file's layout: both are written in one format.
    if (this.posFile.version !== this.docFile.version) {
      throw errors.corruptIndex(`postings format ${this.docFile.version} with positions format ${this.posFile.version}`, posResource);
    }
  }

  /**
   * A cursor over a term's postings. `hasFreqs`/`hasPositions` are the field's index options; `flags` says
   * what the caller will read. Pass a previous enum of this reader as `reuse` to avoid allocating.
   */
  postings(state: TermState, hasFreqs: boolean, hasPositions: boolean, flags: PostingsFlags, reuse?: PostingsEnum): PostingsEnum {
    const postingsEnum =
      reuse instanceof BlockPostingsEnum && reuse.belongsTo(this.docFile.bytes)
        ? reuse
        : new BlockPostingsEnum(
            this.docFile.bytes,
            { start: this.docFile.body.start, end: this.docFile.body.end },
            this.posFile.bytes,
            { start: this.posFile.body.start, end: this.posFile.body.end },
            this.docFile.resource,
            this.posFile.resource,
            this.posFile.version >= POSTINGS_VERSION_PACKED_POSITIONS,
          );
    return postingsEnum.reset(state, hasFreqs, hasPositions, flags);
  }
}
