/**
 * A query that keeps the documents of one slice out of `max` (ES's SliceQuery): subclasses hash a document
 * to a long and keep it when `floorMod(hash, max) == id`. Constant score; equal when field, id and max are.
 */
import { Query } from '../../core/query.js';
import { sliceOf } from './slice-hash.js';

export abstract class SliceQuery extends Query {
  constructor(
    readonly field: string,
    readonly id: number,
    readonly max: number,
  ) {
    super();
  }

  /** SliceQuery.contains. */
  protected contains(hash: number): boolean {
    return sliceOf(hash, this.max) === this.id;
  }

  toString(): string {
    return `${this.constructor.name}[field=${this.field}, id=${this.id}, max=${this.max}]`;
  }

  equals(other: Query): boolean {
    return other instanceof SliceQuery && other.constructor === this.constructor && other.field === this.field && other.id === this.id && other.max === this.max;
  }
}
