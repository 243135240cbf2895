/** Reads the norms file: each field's norms are a Uint8Array indexed by doc id, viewing the file in place. */
import { openCodecFile, openToc } from '../codec-file.js';
import { NORMS_CODEC, NORMS_MODE_BYTES, NORMS_MODE_CONSTANT, NORMS_VERSION_CURRENT, NORMS_VERSION_START } from './norms-format.js';

export class NormsReader {
  private readonly fields = new Map<string, Uint8Array>();

  constructor(bytes: Buffer, resource: string, segmentId: Uint8Array, readonly maxDoc: number) {
    const file = openCodecFile(bytes, resource, {
      codec: NORMS_CODEC,
      minVersion: NORMS_VERSION_START,
      maxVersion: NORMS_VERSION_CURRENT,
      segmentId,
    });
    const toc = openToc(file.body);
    const fieldCount = toc.readCount();
    for (let i = 0; i < fieldCount; i++) {
      const name = toc.readString();
      const mode = toc.readByte();
      if (mode === NORMS_MODE_CONSTANT) {
        this.fields.set(name, new Uint8Array(maxDoc).fill(toc.readByte()));
      } else if (mode === NORMS_MODE_BYTES) {
        const offset = toc.readUInt64LE();
        if (offset < file.body.start || offset + maxDoc > toc.start) throw toc.corrupt(`norms of [${name}] lie outside the data`);
        this.fields.set(name, new Uint8Array(bytes.buffer, bytes.byteOffset + offset, maxDoc));
      } else {
        throw toc.corrupt(`unknown norms mode ${mode} for field [${name}]`);
      }
    }
    if (toc.remaining !== 0) throw toc.corrupt(`${toc.remaining} unexpected bytes after the norms table`);
  }

  /** Norm bytes of a field, indexed by doc id; undefined when the field has no norms. Do not modify. */
  get(field: string): Uint8Array | undefined {
    return this.fields.get(field);
  }

  fieldNames(): string[] {
    return [...this.fields.keys()];
  }
}
