/**
 * The frame every codec file shares (the role of Lucene's CodecUtil):
 *
 *   Header  = Magic(u32 BE) CodecName(u8 length + ASCII) Version(u32 BE) SegmentId(16 bytes) Suffix(u8 length + ASCII)
 *   Body    = format-specific bytes
 *   Footer  = FooterMagic(u32 BE) Algorithm(u32 BE, 0 = CRC-32) Checksum(u64 BE, high 32 bits zero)
 *
 * The checksum covers every byte before it, footer magic and algorithm included, so flipping any single
 * byte of the file is detected. Opening a file checks, in order: that it is long enough to hold a header
 * and a footer, the checksum (so damage is reported as damage, not as a confusing header mismatch), the
 * footer magic (truncation), then header magic, codec name, version range, segment id and suffix.
 *
 * The segment id in every header ties a file to its segment: a file copied in from another segment with
 * the same name is rejected even though its own checksum is fine.
 */
import { errors } from '../../common/errors.js';
import { ByteReader } from '../store/byte-reader.js';
import { ByteWriter } from '../store/byte-writer.js';
import { crc32 } from './crc32.js';

export const CODEC_MAGIC = 0x474e5443; // "GNTC"
export const FOOTER_MAGIC = ~CODEC_MAGIC >>> 0;
export const FOOTER_LENGTH = 16;
export const CHECKSUM_ALGORITHM_CRC32 = 0;
export const SEGMENT_ID_LENGTH = 16;

/** What a reader expects to find in a file's header. */
export interface ExpectedHeader {
  codec: string;
  minVersion: number;
  maxVersion: number;
  segmentId: Uint8Array;
  suffix?: string;
}

/** A file whose frame has been verified; `body` reads the bytes between header and footer. */
export interface OpenedCodecFile {
  readonly bytes: Buffer;
  readonly resource: string;
  readonly version: number;
  readonly checksum: number;
  readonly body: ByteReader;
}

function assertSimpleAscii(value: string, maxLength: number, what: string): void {
  if (value.length > maxLength || !/^[\x20-\x7e]*$/.test(value)) {
    throw new RangeError(`${what} must be simple ASCII, at most ${maxLength} characters [got ${value}]`);
  }
}

export function segmentIdToString(id: Uint8Array): string {
  return Buffer.from(id).toString('hex');
}

/** Starts a file: writes its header into a fresh writer. */
export function startCodecFile(codec: string, version: number, segmentId: Uint8Array, suffix = ''): ByteWriter {
  assertSimpleAscii(codec, 127, 'codec name');
  assertSimpleAscii(suffix, 255, 'suffix');
  if (segmentId.length !== SEGMENT_ID_LENGTH) throw new RangeError(`segment id must be ${SEGMENT_ID_LENGTH} bytes`);
  const out = new ByteWriter(4096);
  out.writeUInt32BE(CODEC_MAGIC);
  out.writeByte(codec.length);
  out.writeBytes(Buffer.from(codec, 'latin1'));
  out.writeUInt32BE(version);
  out.writeBytes(segmentId);
  out.writeByte(suffix.length);
  out.writeBytes(Buffer.from(suffix, 'latin1'));
  return out;
}

export function headerLength(codec: string, suffix = ''): number {
  return 4 + 1 + codec.length + 4 + SEGMENT_ID_LENGTH + 1 + suffix.length;
}

/** Ends a file: appends the footer and returns the finished bytes and their checksum. */
export function finishCodecFile(out: ByteWriter): { bytes: Buffer; checksum: number } {
  out.writeUInt32BE(FOOTER_MAGIC);
  out.writeUInt32BE(CHECKSUM_ALGORITHM_CRC32);
  const checksum = crc32(out.bytes());
  out.writeUInt32BE(0);
  out.writeUInt32BE(checksum);
  return { bytes: out.toBuffer(), checksum };
}

/** The checksum recorded in a file's footer, without verifying anything. */
export function storedChecksum(bytes: Buffer): number {
  return bytes.length >= FOOTER_LENGTH ? bytes.readUInt32BE(bytes.length - 4) : -1;
}

const hex = (value: number): string => (value >>> 0).toString(16);

/** Verifies a file's frame and returns a reader over its body. Throws corrupt_index_exception. */
export function openCodecFile(bytes: Buffer, resource: string, expected: ExpectedHeader): OpenedCodecFile {
  const suffix = expected.suffix ?? '';
  const minimum = headerLength(expected.codec, suffix) + FOOTER_LENGTH;
  if (bytes.length < minimum) {
    throw errors.corruptIndex(
      `file is too short to hold a codec header and footer (file truncated?): length=${bytes.length} but needs at least ${minimum}`,
      resource,
    );
  }
  const footerStart = bytes.length - FOOTER_LENGTH;
  const footerMagic = bytes.readUInt32BE(footerStart);
  const actualChecksum = crc32(bytes.subarray(0, bytes.length - 8));
  const checksumHigh = bytes.readUInt32BE(bytes.length - 8);
  const expectedChecksum = bytes.readUInt32BE(bytes.length - 4);
  if (footerMagic !== FOOTER_MAGIC) {
    throw errors.corruptIndex(
      `codec footer mismatch (file truncated?): actual footer=${footerMagic} vs expected footer=${FOOTER_MAGIC}`,
      resource,
    );
  }
  if (checksumHigh !== 0 || expectedChecksum !== actualChecksum) {
    const stored = checksumHigh !== 0 ? hex(checksumHigh) + hex(expectedChecksum).padStart(8, '0') : hex(expectedChecksum);
    throw errors.corruptIndex(`checksum failed (hardware problem?) : expected=${stored} actual=${hex(actualChecksum)}`, resource);
  }
  const algorithm = bytes.readUInt32BE(footerStart + 4);
  if (algorithm !== CHECKSUM_ALGORITHM_CRC32) {
    throw errors.corruptIndex(`codec footer mismatch: unknown checksum algorithm=${algorithm}`, resource);
  }

  const header = new ByteReader(bytes, 0, footerStart, resource);
  const magic = header.readUInt32BE();
  if (magic !== CODEC_MAGIC) {
    throw errors.corruptIndex(`codec header mismatch: actual header=${magic} vs expected header=${CODEC_MAGIC}`, resource);
  }
  const codec = header.readBytes(header.readByte()).toString('latin1');
  if (codec !== expected.codec) {
    throw errors.corruptIndex(`codec mismatch: actual codec=${codec} vs expected codec=${expected.codec}`, resource);
  }
  const version = header.readUInt32BE();
  if (version < expected.minVersion) throw errors.indexFormatTooOld(resource, version, expected.minVersion, expected.maxVersion);
  if (version > expected.maxVersion) throw errors.indexFormatTooNew(resource, version, expected.minVersion, expected.maxVersion);
  const segmentId = header.readBytes(SEGMENT_ID_LENGTH);
  if (!segmentId.equals(expected.segmentId)) {
    throw errors.corruptIndex(
      `file mismatch, expected id=${segmentIdToString(expected.segmentId)}, got=${segmentIdToString(segmentId)}`,
      resource,
    );
  }
  const actualSuffix = header.readBytes(header.readByte()).toString('latin1');
  if (actualSuffix !== suffix) {
    throw errors.corruptIndex(`file mismatch, expected suffix=${suffix}, got=${actualSuffix}`, resource);
  }
  const body = new ByteReader(bytes, header.position, footerStart, resource);
  return { bytes, resource, version, checksum: actualChecksum, body };
}

/**
 * Multi-section files end their body with a table of contents and, as the body's last 8 bytes, the
 * offset of that table (written after the sections, since only then are their offsets known).
 */
export function writeTocPointer(out: ByteWriter, tocOffset: number): void {
  out.writeUInt64LE(tocOffset);
}

/** A reader positioned at the table of contents; its region ends before the toc pointer. */
export function openToc(body: ByteReader): ByteReader {
  if (body.end - body.start < 8) throw body.corrupt('body too short to hold a table of contents pointer');
  const pointer = body.slice(body.end - 8, body.end);
  const tocOffset = pointer.readUInt64LE();
  if (tocOffset < body.start || tocOffset > body.end - 8) {
    throw body.corrupt(`table of contents offset ${tocOffset} outside the body [${body.start}, ${body.end - 8})`);
  }
  return body.slice(tocOffset, body.end - 8);
}
