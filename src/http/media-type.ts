/**
 * Media types as ES parses them: `application/json`, `application/x-ndjson`, `application/yaml`, `text/plain`,
 * and the versioned vendor forms `application/vnd.elasticsearch+json; compatible-with=8` that the 8.x/9.x
 * clients send. A compatible version must be given on both Accept and Content-Type when either has one.
 */
import { ownValue } from '../common/own-keys.js';
import { errors } from '../common/errors.js';

export type Format = 'json' | 'yaml' | 'ndjson' | 'text' | 'smile' | 'cbor';

export interface MediaType {
  format: Format;
  /** `compatible-with` version when a vendor type was used. */
  compatibleWith?: number;
  vendor: boolean;
}

const SUBTYPE_FORMAT: Record<string, Format> = {
  json: 'json',
  'x-ndjson': 'ndjson',
  yaml: 'yaml',
  'x-yaml': 'yaml',
  plain: 'text',
  smile: 'smile',
  cbor: 'cbor',
};

/** Gannet answers clients of ES 7, 8 and 9 (see docs/decisions/0001-reported-version.md). */
export const SUPPORTED_COMPATIBLE_VERSIONS = [7, 8, 9];

/** Parses one media type; `*\/*` and unknown types give undefined. */
export function parseMediaType(raw: string | undefined): MediaType | undefined {
  if (!raw) return undefined;
  const [typePart, ...paramParts] = raw.split(';');
  const match = /^\s*(application|text)\/(vnd\.elasticsearch\+)?([a-z0-9.+-]+)\s*$/i.exec(typePart ?? '');
  if (!match) return undefined;
  const format = ownValue(SUBTYPE_FORMAT, match[3]!.toLowerCase());
  if (!format) return undefined;
  const vendor = match[2] !== undefined;
  let compatibleWith: number | undefined;
  for (const param of paramParts) {
    const [name, value] = param.split('=').map((s) => s.trim().toLowerCase());
    if (name === 'compatible-with' && value !== undefined) compatibleWith = Number(value);
  }
  return { format, vendor, compatibleWith };
}

/** The first known type of an Accept header (clients send e.g. `application/vnd...; compatible-with=8,text/plain`). */
export function parseAccept(raw: string | undefined): MediaType | undefined {
  if (!raw) return undefined;
  for (const candidate of splitAccept(raw)) {
    const parsed = parseMediaType(candidate);
    if (parsed) return parsed;
  }
  return undefined;
}

function splitAccept(raw: string): string[] {
  // Commas separate types; parameters never contain commas in the types we accept.
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** The compatible-with version the request asked for, validated as ES validates it. */
export function negotiateCompatibleVersion(acceptRaw: string | undefined, contentTypeRaw: string | undefined, hasBody: boolean): number | undefined {
  const accept = parseAccept(acceptRaw);
  const contentType = hasBody ? parseMediaType(contentTypeRaw) : undefined;
  const acceptVersion = accept?.vendor ? accept.compatibleWith : undefined;
  const contentVersion = contentType?.vendor ? contentType.compatibleWith : undefined;
  for (const version of [acceptVersion, contentVersion]) {
    if (version !== undefined && !SUPPORTED_COMPATIBLE_VERSIONS.includes(version)) {
      throw errors.mediaTypeHeader(
        `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version and the compatible versions must match. Accept=${acceptRaw ?? 'null'}, Content-Type=${contentTypeRaw ?? 'null'}`,
      );
    }
  }
  if (acceptVersion !== undefined && contentVersion !== undefined && acceptVersion !== contentVersion) {
    throw errors.mediaTypeHeader(
      `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version and the compatible versions must match. Accept=${acceptRaw}, Content-Type=${contentTypeRaw}`,
    );
  }
  return acceptVersion ?? contentVersion;
}

export function contentTypeFor(format: Format, compatibleWith: number | undefined): string {
  switch (format) {
    case 'yaml':
      return compatibleWith ? `application/vnd.elasticsearch+yaml;compatible-with=${compatibleWith}` : 'application/yaml';
    case 'text':
      return 'text/plain; charset=UTF-8';
    case 'ndjson':
      return 'application/x-ndjson';
    default:
      return compatibleWith ? `application/vnd.elasticsearch+json;compatible-with=${compatibleWith}` : 'application/json';
  }
}
