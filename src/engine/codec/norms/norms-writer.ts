/** Writes the norms file. Input: for each field with norms, one byte per document (see small-float.ts). */
import { finishCodecFile, startCodecFile, writeTocPointer } from '../codec-file.js';
import { NORMS_CODEC, NORMS_MODE_BYTES, NORMS_MODE_CONSTANT, NORMS_VERSION_CURRENT } from './norms-format.js';

export class NormsWriter {
  private readonly fields = new Map<string, Uint8Array>();

  constructor(private readonly maxDoc: number) {}

  /** `norms[doc]` is the norm byte of `doc`; 0 for documents without the field. */
  addField(name: string, norms: Uint8Array): void {
    if (norms.length !== this.maxDoc) throw new RangeError(`norms of [${name}] have ${norms.length} entries, expected ${this.maxDoc}`);
    if (this.fields.has(name)) throw new Error(`norms of [${name}] added twice`);
    this.fields.set(name, norms);
  }

  finish(segmentId: Uint8Array): { bytes: Buffer; checksum: number } {
    const out = startCodecFile(NORMS_CODEC, NORMS_VERSION_CURRENT, segmentId);
    const offsets = new Map<string, number>();
    for (const [name, norms] of this.fields) {
      if (isConstant(norms)) continue;
      offsets.set(name, out.length);
      out.writeBytes(norms);
    }
    const tocOffset = out.length;
    out.writeVInt(this.fields.size);
    for (const [name, norms] of this.fields) {
      out.writeString(name);
      const offset = offsets.get(name);
      if (offset === undefined) {
        out.writeByte(NORMS_MODE_CONSTANT);
        out.writeByte(norms.length === 0 ? 0 : norms[0]!);
      } else {
        out.writeByte(NORMS_MODE_BYTES);
        out.writeUInt64LE(offset);
      }
    }
    writeTocPointer(out, tocOffset);
    return finishCodecFile(out);
  }
}

function isConstant(norms: Uint8Array): boolean {
  for (let i = 1; i < norms.length; i++) if (norms[i] !== norms[0]) return false;
  return true;
}
