/** Assertions on ES-style error answers shared by the integration tests. */
import assert from 'node:assert/strict';
import type { HttpResult } from './node-process.js';

/** The answer is an ES error with exactly this status, `error.type` and `error.reason`. */
export function assertError(res: HttpResult, status: number, type: string, reason: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.error.type, type);
  assert.equal(res.body.error.reason, reason);
}
