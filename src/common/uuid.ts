/**
 * Random ids in Elasticsearch's form: 16 random bytes as URL-safe base64 without padding (22 chars),
 * with the RFC 4122 version and variant bits set, as UUIDs.randomBase64UUID() makes them.
 */
import { randomBytes } from 'node:crypto';

export function randomBase64Uuid(): string {
  const bytes = randomBytes(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // IETF variant
  return bytes.toString('base64url');
}
