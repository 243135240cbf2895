/** `<node_id>:<number>`, parsed as ES's TaskId does: split on the first `:`, the rest must be a long. */
import { errors } from '../common/errors.js';

export class TaskId {
  constructor(
    readonly nodeId: string,
    readonly id: number,
  ) {}

  toString(): string {
    return `${this.nodeId}:${this.id}`;
  }

  equals(other: TaskId | undefined): boolean {
    return other !== undefined && other.nodeId === this.nodeId && other.id === this.id;
  }

  /** Parses a task id; `""` and `unset` mean "no task id" (undefined), as ES's TaskId(String) does. */
  static parse(raw: string | undefined): TaskId | undefined {
    if (raw === undefined || raw === '' || raw === 'unset') return undefined;
    const colon = raw.indexOf(':');
    if (colon < 0) throw errors.malformedTaskId(raw);
    const nodeId = raw.slice(0, colon);
    const number = raw.slice(colon + 1);
    if (!/^-?\d+$/.test(number) || !Number.isSafeInteger(Number(number))) throw errors.malformedTaskId(raw);
    return new TaskId(nodeId, Number(number));
  }
}
