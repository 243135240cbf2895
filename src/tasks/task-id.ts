/**
 * `<node_id>:<number>`, parsed as ES's TaskId(String) does: `""` and `unset` mean "no task id", the text is
 * split at the FIRST `:` (so `a:b:c` fails on the number `b:c`), the node part may be empty, and the number
 * follows Java's Long.parseLong (optional sign, ASCII digits, 64-bit range). An id of -1 is ES's "unset"
 * marker, so `node:-1` also means "no task id".
 */
import { errors } from '../common/errors.js';

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export class TaskId {
  /** Exact decimal text of the id; differs from String(id) only beyond 2^53, where numbers lose precision. */
  readonly idText: string;

  constructor(
    readonly nodeId: string,
    readonly id: number,
    idText?: string,
  ) {
    this.idText = idText ?? String(id);
  }

  toString(): string {
    return `${this.nodeId}:${this.idText}`;
  }

  equals(other: TaskId | undefined): boolean {
    return other !== undefined && other.nodeId === this.nodeId && other.idText === this.idText;
  }

  /** Parses a task id; undefined stands for ES's EMPTY_TASK_ID (no filter, no target). */
  static parse(raw: string | undefined): TaskId | undefined {
    if (raw === undefined || raw === '' || raw === 'unset') return undefined;
    const colon = raw.indexOf(':');
    if (colon < 0) throw errors.malformedTaskId(raw);
    const nodeId = raw.slice(0, colon);
    const numberText = raw.slice(colon + 1);
    // Every node-level request carries its parent's id and every child task parses it: plain digits that a number
    // holds exactly (at most 15) need no BigInt (the text is then also its own canonical form).
    if (numberText.length > 0 && numberText.length <= 15 && (numberText.length === 1 || numberText.charCodeAt(0) !== 0x30) && isDigits(numberText)) {
      return new TaskId(nodeId, Number(numberText), numberText);
    }
    if (!/^[+-]?[0-9]+$/.test(numberText)) throw errors.malformedTaskId(raw);
    const value = BigInt(numberText);
    if (value < LONG_MIN || value > LONG_MAX) throw errors.malformedTaskId(raw);
    if (value === -1n) return undefined;
    return new TaskId(nodeId, Number(value), value.toString());
  }
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
