/**
 * Segment info (`<segment>.si`), written last when a segment is created: what the segment is and which
 * files make it up, so a reader can check every file against it before trusting any.
 *
 *   Body = Name(string) MaxDoc(vInt) CodecVersion(string)
 *          FieldCount(vInt) { Name(string) Number(vInt) IndexOptions(byte) HasNorms(byte) DocValues(byte)
 *                             HasStats(byte) [DocCount(vInt) SumDocFreq(vLong) SumTotalTermFreq(vLong) TermCount(vLong)] }*
 *          FileCount(vInt) { Name(string) Length(vLong) Checksum(u32 LE) }*
 *          AttributeCount(vInt) { Key(string) Value(string) }*
 *
 * The segment id is the one in the file's header (every file of the segment carries it). Deletes are not
 * recorded here: their generation changes after the segment is written and belongs to the commit point.
 */
import { finishCodecFile, openCodecFile, SEGMENT_ID_LENGTH, headerLength, startCodecFile } from '../codec-file.js';
import { DOC_VALUES_TYPES, INDEX_OPTIONS, type FieldInfo } from './field-info.js';

export const SEGMENT_INFO_CODEC = 'GannetSegmentInfo';
export const SEGMENT_INFO_VERSION_START = 1;
export const SEGMENT_INFO_VERSION_CURRENT = SEGMENT_INFO_VERSION_START;
export const SEGMENT_INFO_EXTENSION = 'si';

/** The codec generation a segment was written with; bumped when any format changes incompatibly. */
export const CODEC_VERSION = 'Gannet10';

export interface SegmentFile {
  readonly name: string;
  readonly length: number;
  /** CRC-32 from the file's footer. */
  readonly checksum: number;
}

export interface SegmentInfo {
  readonly name: string;
  readonly id: Uint8Array;
  readonly maxDoc: number;
  readonly codecVersion: string;
  readonly fields: readonly FieldInfo[];
  readonly files: readonly SegmentFile[];
  readonly attributes: Readonly<Record<string, string>>;
}

export function writeSegmentInfo(info: SegmentInfo): { bytes: Buffer; checksum: number } {
  const out = startCodecFile(SEGMENT_INFO_CODEC, SEGMENT_INFO_VERSION_CURRENT, info.id);
  out.writeString(info.name);
  out.writeVInt(info.maxDoc);
  out.writeString(info.codecVersion);
  out.writeVInt(info.fields.length);
  for (const field of info.fields) {
    out.writeString(field.name);
    out.writeVInt(field.number);
    out.writeByte(INDEX_OPTIONS.indexOf(field.indexOptions));
    out.writeByte(field.hasNorms ? 1 : 0);
    out.writeByte(DOC_VALUES_TYPES.indexOf(field.docValues));
    out.writeByte(field.stats === null ? 0 : 1);
    if (field.stats !== null) {
      out.writeVInt(field.stats.docCount);
      out.writeVLong(field.stats.sumDocFreq);
      out.writeVLong(field.stats.sumTotalTermFreq);
      out.writeVLong(field.stats.termCount);
    }
  }
  out.writeVInt(info.files.length);
  for (const file of info.files) {
    out.writeString(file.name);
    out.writeVLong(file.length);
    out.writeUInt32LE(file.checksum);
  }
  const attributes = Object.entries(info.attributes);
  out.writeVInt(attributes.length);
  for (const [key, value] of attributes) {
    out.writeString(key);
    out.writeString(value);
  }
  return finishCodecFile(out);
}

/**
 * Reads a segment info file. `expectedId` comes from the commit point; without it the id is taken from
 * the file's own header (after its checksum is verified), for tools that open a segment by name.
 */
export function readSegmentInfo(bytes: Buffer, resource: string, expectedId?: Uint8Array): SegmentInfo {
  const idOffset = headerLength(SEGMENT_INFO_CODEC) - SEGMENT_ID_LENGTH - 1;
  const id = expectedId ?? Buffer.from(bytes.subarray(idOffset, idOffset + SEGMENT_ID_LENGTH));
  const file = openCodecFile(bytes, resource, {
    codec: SEGMENT_INFO_CODEC,
    minVersion: SEGMENT_INFO_VERSION_START,
    maxVersion: SEGMENT_INFO_VERSION_CURRENT,
    segmentId: id,
  });
  const body = file.body;
  const name = body.readString();
  const maxDoc = body.readVInt();
  const codecVersion = body.readString();
  if (codecVersion !== CODEC_VERSION) throw body.corrupt(`unknown codec version [${codecVersion}], expected [${CODEC_VERSION}]`);
  const fieldCount = body.readCount(6);
  const fields: FieldInfo[] = [];
  for (let i = 0; i < fieldCount; i++) {
    const fieldName = body.readString();
    const number = body.readVInt();
    const indexOptions = INDEX_OPTIONS[body.readByte()];
    const hasNorms = body.readByte() === 1;
    const docValues = DOC_VALUES_TYPES[body.readByte()];
    if (indexOptions === undefined || docValues === undefined) throw body.corrupt(`invalid options for field [${fieldName}]`);
    const stats =
      body.readByte() === 1
        ? { docCount: body.readVInt(), sumDocFreq: body.readVLong(), sumTotalTermFreq: body.readVLong(), termCount: body.readVLong() }
        : null;
    if (stats !== null && stats.docCount > maxDoc) throw body.corrupt(`field [${fieldName}] has docCount ${stats.docCount} > maxDoc ${maxDoc}`);
    fields.push({ name: fieldName, number, indexOptions, hasNorms, docValues, stats });
  }
  const fileCount = body.readCount(6);
  const files: SegmentFile[] = [];
  for (let i = 0; i < fileCount; i++) files.push({ name: body.readString(), length: body.readVLong(), checksum: body.readUInt32LE() });
  const attributeCount = body.readCount(2);
  const entries: Array<[string, string]> = [];
  for (let i = 0; i < attributeCount; i++) entries.push([body.readString(), body.readString()]);
  // fromEntries defines own properties, so a key like "__proto__" cannot reach the prototype.
  const attributes: Record<string, string> = Object.fromEntries(entries);
  if (body.remaining !== 0) throw body.corrupt(`${body.remaining} unexpected bytes after the segment info`);
  return { name, id, maxDoc, codecVersion, fields, files, attributes };
}
