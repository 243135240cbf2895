/**
 * Elasticsearch's versioning rules for writes on the primary (VersionType + InternalEngine's
 * planIndexingAsPrimary / planDeletionAsPrimary), with the exact conflict explanations users see:
 *
 *   if_seq_no/if_primary_term   checked first: the document must exist with exactly that seqNo and term
 *   op_type=create              the document must not exist (a deleted one counts as not existing)
 *   internal                    no check; version = current + 1 (1 for a new document)
 *   external                    the given version must be higher than the current one (any, if none)
 *   external_gte                the given version must be higher or equal
 * A conflict costs no seqNo and writes nothing.
 */
import type { VersionType } from '../engine.js';

/** ES's Versions.NOT_FOUND / MATCH_ANY / MATCH_DELETED. */
export const NOT_FOUND = -1;
export const MATCH_ANY = -3;
export const MATCH_DELETED = -4;

/** The latest state of the id as far as versioning is concerned (null: never seen or forgotten). */
export interface CurrentState {
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly deleted: boolean;
}

export type WritePlan =
  | { readonly kind: 'apply'; readonly version: number; readonly currentNotFoundOrDeleted: boolean }
  | { readonly kind: 'conflict'; readonly explanation: string };

export interface WriteRequest {
  readonly versionType: VersionType;
  /** The version the request carries: MATCH_ANY, MATCH_DELETED (create) or an external version. */
  readonly expectedVersion: number;
  readonly ifSeqNo?: number;
  readonly ifPrimaryTerm?: number;
}

export function planWrite(request: WriteRequest, current: CurrentState | null): WritePlan {
  const currentVersion = current === null ? NOT_FOUND : current.version;
  const notFoundOrDeleted = current === null || current.deleted;
  if (request.ifSeqNo !== undefined) {
    const ifTerm = request.ifPrimaryTerm ?? 0;
    if (notFoundOrDeleted) {
      return { kind: 'conflict', explanation: `required seqNo [${request.ifSeqNo}], primary term [${ifTerm}]. but no document was found` };
    }
    if (current.seqNo !== request.ifSeqNo || current.primaryTerm !== ifTerm) {
      return {
        kind: 'conflict',
        explanation:
          `required seqNo [${request.ifSeqNo}], primary term [${ifTerm}]. current document has seqNo [${current.seqNo}] ` +
          `and primary term [${current.primaryTerm}]`,
      };
    }
  }
  if (isConflict(request.versionType, currentVersion, request.expectedVersion, notFoundOrDeleted)) {
    return { kind: 'conflict', explanation: explainConflict(request.versionType, currentVersion, request.expectedVersion) };
  }
  return {
    kind: 'apply',
    version: updateVersion(request.versionType, currentVersion, request.expectedVersion),
    currentNotFoundOrDeleted: notFoundOrDeleted,
  };
}

function isConflict(type: VersionType, currentVersion: number, expectedVersion: number, deleted: boolean): boolean {
  switch (type) {
    case 'internal':
      if (expectedVersion === MATCH_ANY) return false;
      if (expectedVersion === MATCH_DELETED) return !deleted;
      return currentVersion !== expectedVersion;
    case 'external':
      if (currentVersion === NOT_FOUND) return false;
      if (expectedVersion === MATCH_ANY) return true;
      return currentVersion >= expectedVersion;
    case 'external_gte':
      if (currentVersion === NOT_FOUND) return false;
      if (expectedVersion === MATCH_ANY) return true;
      return currentVersion > expectedVersion;
  }
}

function explainConflict(type: VersionType, currentVersion: number, expectedVersion: number): string {
  switch (type) {
    case 'internal':
      if (expectedVersion === MATCH_DELETED) return `document already exists (current version [${currentVersion}])`;
      if (currentVersion === NOT_FOUND) return `document does not exist (expected version [${expectedVersion}])`;
      return `current version [${currentVersion}] is different than the one provided [${expectedVersion}]`;
    case 'external':
      return `current version [${currentVersion}] is higher or equal to the one provided [${expectedVersion}]`;
    case 'external_gte':
      return `current version [${currentVersion}] is higher than the one provided [${expectedVersion}]`;
  }
}

function updateVersion(type: VersionType, currentVersion: number, expectedVersion: number): number {
  if (type === 'internal') return currentVersion === NOT_FOUND ? 1 : currentVersion + 1;
  return expectedVersion;
}
