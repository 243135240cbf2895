/**
 * Opens every file of one segment and verifies it before anything is read: each file listed in the
 * segment info must exist, have the recorded length and footer checksum, and pass its own header and
 * full CRC check. What search gets back is the set of per-format readers.
 */
import { errors } from '../../../common/errors.js';
import type { Directory } from '../../store/directory.js';
import { storedChecksum } from '../codec-file.js';
import { DocValuesReader } from '../docvalues/doc-values-reader.js';
import { liveDocsFileName, readLiveDocs, type LiveDocs } from '../livedocs/live-docs.js';
import { NormsReader } from '../norms/norms-reader.js';
import { StoredFieldsReader } from '../stored/stored-fields-reader.js';
import { TermsReader } from '../terms/terms-reader.js';
import type { FieldInfo } from './field-info.js';
import { segmentFileName, SegmentFileExtensions } from './file-names.js';
import { readSegmentInfo, type SegmentInfo } from './segment-info.js';

export interface OpenSegmentOptions {
  /** The segment id recorded by the commit point; checked against every file's header. */
  readonly id?: Uint8Array;
  /** Generation of the live docs file to load (from the commit point); 0 or absent = no deletes. */
  readonly liveDocsGeneration?: number;
}

export class SegmentReaders {
  private readonly fieldsByName: Map<string, FieldInfo>;

  private constructor(
    readonly info: SegmentInfo,
    readonly terms: TermsReader,
    readonly norms: NormsReader,
    readonly docValues: DocValuesReader,
    readonly stored: StoredFieldsReader,
    /** Null when the segment has no deletes. */
    readonly liveDocs: LiveDocs | null,
  ) {
    this.fieldsByName = new Map(info.fields.map((field) => [field.name, field]));
  }

  get maxDoc(): number {
    return this.info.maxDoc;
  }

  /** Drops what reading this segment decoded and kept (the stored fields' blocks and chunk tables). */
  clearCaches(): void {
    this.stored.clearCaches();
  }

  field(name: string): FieldInfo | undefined {
    return this.fieldsByName.get(name);
  }

  static async open(directory: Directory, segmentName: string, options: OpenSegmentOptions = {}): Promise<SegmentReaders> {
    const infoName = segmentFileName(segmentName, SegmentFileExtensions.segmentInfo);
    const info = readSegmentInfo(await readListed(directory, infoName), directory.resourceName(infoName), options.id);
    if (info.name !== segmentName) throw errors.corruptIndex(`segment info names segment [${info.name}]`, directory.resourceName(infoName));

    const files = new Map<string, { bytes: Buffer; resource: string }>();
    for (const file of info.files) {
      const resource = directory.resourceName(file.name);
      const bytes = await readListed(directory, file.name);
      if (bytes.length !== file.length) {
        throw errors.corruptIndex(`file length mismatch (file truncated?): segment info says ${file.length} bytes, found ${bytes.length}`, resource);
      }
      const checksum = storedChecksum(bytes);
      if (checksum !== file.checksum) {
        throw errors.corruptIndex(
          `file mismatch: segment info records checksum=${file.checksum.toString(16)}, file has ${(checksum >>> 0).toString(16)}`,
          resource,
        );
      }
      files.set(file.name, { bytes, resource });
    }
    const file = (extension: string): { bytes: Buffer; resource: string } => {
      const name = segmentFileName(segmentName, extension);
      const found = files.get(name);
      if (found === undefined) throw errors.corruptIndex(`segment info does not list [${name}]`, directory.resourceName(infoName));
      return found;
    };

    const id = info.id;
    const terms = new TermsReader(
      { terms: file(SegmentFileExtensions.terms), doc: file(SegmentFileExtensions.doc), pos: file(SegmentFileExtensions.pos) },
      id,
    );
    const normsFile = file(SegmentFileExtensions.norms);
    const norms = new NormsReader(normsFile.bytes, normsFile.resource, id, info.maxDoc);
    const docValuesFile = file(SegmentFileExtensions.docValues);
    const docValues = new DocValuesReader(docValuesFile.bytes, docValuesFile.resource, id, info.maxDoc);
    const storedFile = file(SegmentFileExtensions.stored);
    const stored = new StoredFieldsReader(storedFile.bytes, storedFile.resource, id, info.maxDoc);

    let liveDocs: LiveDocs | null = null;
    const generation = options.liveDocsGeneration ?? 0;
    if (generation > 0) {
      const name = liveDocsFileName(segmentName, generation);
      liveDocs = readLiveDocs(await readListed(directory, name), directory.resourceName(name), id, generation, info.maxDoc);
    }
    return new SegmentReaders(info, terms, norms, docValues, stored, liveDocs);
  }
}

/** Reads a file the segment needs; a missing one is index corruption, reported as such. */
async function readListed(directory: Directory, fileName: string): Promise<Buffer> {
  try {
    return await directory.readFile(fileName);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') {
      throw errors.corruptIndex('file is missing (was it deleted or never written?)', directory.resourceName(fileName));
    }
    throw err;
  }
}
