/**
 * Stored fields (`<segment>.fdt`): each document's stored values (`_id`, `_source`, ...), in compressed
 * chunks of consecutive documents. Version 2 splits every document in two parts and a chunk in blocks, so
 * that a fetch decompresses little:
 *
 * - the metadata part (field numbers, types, strings such as `_id` and `_routing`, numbers, and the length
 *   of each bytes value) goes to the block's meta stream: fetching ids never touches `_source`;
 * - the bytes values (`_source`) go, in field order, to the block's body stream. Block 0's body is
 *   compressed alone; every later block's body is compressed with the tail of block 0's body as preset
 *   dictionary (Lucene 8.7+'s LZ4WithPresetDict / DeflateWithPresetDict), so similar documents still
 *   compress together while one document costs block 0 plus its own block.
 *
 *   Body   = Chunk* Toc TocPointer
 *   Chunk  = BlockCount(vInt) { DocCount(vInt) MetaRawLength(vInt) MetaCompressedLength(vInt) BodyRawLength(vInt) BodyCompressedLength(vInt) }*BlockCount
 *            DictionaryLength(vInt: bytes at the end of block 0's body)
 *            { MetaCompressed BodyCompressed }*BlockCount
 *   Toc    = Compression(byte: 0 lz4, 1 deflate level 1, 2 deflate level 6) MetaCompression(byte: same, or 3 none)
 *            MetaGroupDocs(vInt) MaxDoc(vInt) ChunkCount(vInt) { DocCount(vInt) ChunkFPDelta(vLong, file offsets) }*
 *            FieldNameCount(vInt) { Name(string) }*
 *   MetaCompressed = { GroupRawLength(vInt) GroupBodyLength(vInt) GroupCompressedLength(vInt) }*ceil(DocCount / MetaGroupDocs)
 *            { GroupCompressed }*: each group of MetaGroupDocs docs (the last may hold fewer) is compressed alone,
 *            so an id fetch decodes one group; its body length places its docs' bytes values in the body
 *   Meta (decompressed, groups joined) = { FieldCount(vInt) { FieldNumber << 3 | Type (vInt) Value }* }*DocCount
 *   Value  = bytes: Length(vInt) (the bytes are next in the body) | string: Length(vInt) UTF-8
 *          | long: zLong (safe integers) | double: float64 LE | bigint: int64 LE
 *
 * An empty stream (no bytes values in a block) is stored as 0 compressed bytes. Blocks and chunks are cut by
 * the mode's BlockLayout (compression.ts). Version 3 added the metadata groups (version 2 compressed a block's
 * metadata as one stream: reading one id decoded 128); versions 1 and 2 are no longer read:
 * opening it fails with index_format_too_old_exception.
 */
export const STORED_FIELDS_CODEC = 'GannetStoredFields';
export const STORED_FIELDS_VERSION_START = 3;
export const STORED_FIELDS_VERSION_CURRENT = 3;
export const STORED_FIELDS_EXTENSION = 'fdt';

export const TYPE_BYTES = 0;
export const TYPE_STRING = 1;
export const TYPE_LONG = 2;
export const TYPE_DOUBLE = 3;
export const TYPE_BIGINT = 4;

/** A stored value: raw bytes (`_source`), a string (`_id`, `_routing`), or a number. */
export type StoredValue = Uint8Array | string | number | bigint;

export interface StoredField {
  readonly name: string;
  readonly value: StoredValue;
}
