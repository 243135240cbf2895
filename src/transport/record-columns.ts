/**
 * Arrays of same-shaped records as they cross the transport: one array per field instead of one map per record
 * (decision 0018). msgpack writes every key of every map, and the decoder rebuilds each map twice (a Map, then a
 * plain object: frame.ts), so a shard bulk of 1,000 documents, its replica request and its 1,000 outcomes
 * carried ~12,000 keys each way; in a CPU profile of `_bulk` through three nodes, encoding and rebuilding those
 * maps were about 15% of the coordinating node's event loop. As columns each key is written once and the rows come
 * back as plain values (numbers, strings, byte arrays) that the receiver puts into records of one shape.
 *
 * A column whose rows all hold the same value (a bulk's op, index and version type, `undefined` routing and
 * versions, the same flags) travels as that value once, `{ all: value }`: of the twelve columns of a shard bulk
 * request of generated-id documents only the sources vary, and the constant ones were two thirds of its encoding
 * and decoding (decision 0018).
 */

/** `count` rows; `columns[key][row]` is the row's value for `key` (`undefined` where the record had none). */
export interface RecordColumns {
  readonly count: number;
  readonly columns: Readonly<Record<string, readonly unknown[] | ConstantColumn>>;
}

/** A column whose every row holds `all`. */
interface ConstantColumn {
  readonly all: unknown;
}

/** The records' values for `keys`, column by column (keys not listed are not sent). */
export function toColumns<T extends object>(records: readonly T[], keys: readonly (keyof T & string)[]): RecordColumns {
  const columns: Record<string, unknown[] | ConstantColumn> = {};
  for (const key of keys) {
    const column: unknown[] = new Array(records.length);
    let constant = records.length > 1;
    const first = records.length === 0 ? undefined : records[0]![key];
    for (let row = 0; row < records.length; row++) {
      const value = records[row]![key];
      column[row] = value;
      // Only scalars compare by value (===); a byte array or an object is its own row's.
      if (constant && (value !== first || (typeof value === 'object' && value !== null))) constant = false;
    }
    columns[key] = constant ? { all: first } : column;
  }
  return { count: records.length, columns };
}

/** Whether a value received is a RecordColumns (as opposed to the plain array an older sender or a test sends). */
export function isRecordColumns(value: unknown): value is RecordColumns {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as RecordColumns).count === 'number' && typeof (value as RecordColumns).columns === 'object';
}

/** One column by name, checked to have a value per row: a malformed message fails here, not deep in a handler. */
export function column(columns: RecordColumns, key: string): readonly unknown[] {
  const values = columns.columns[key];
  if (Array.isArray(values)) {
    if (values.length !== columns.count) throw new TypeError(`column [${key}] missing or not ${columns.count} rows long`);
    return values;
  }
  if (typeof values === 'object' && values !== null && 'all' in values) return new Array<unknown>(columns.count).fill((values as ConstantColumn).all);
  throw new TypeError(`column [${key}] missing or not ${columns.count} rows long`);
}
