/**
 * A document's `_source` parsed once into the shape ES's fetch sub-phases read it in: objects keep their key
 * order (a Map, because a plain object would move integer-like keys first), numbers keep their literal and
 * whether Jackson saw an integer or a float, so re-serialising prints what ES prints and the `fields` option
 * can convert them per field type. The parse never recurses, so depth is bounded only by the JSON parser.
 */
import { JsonPullParser } from '../../mapping/json-pull-parser.js';

/** A JSON number as it appeared in the source. */
export class SourceNumber {
  constructor(
    /** The literal, exactly as written. */
    readonly text: string,
    /** Jackson's VALUE_NUMBER_INT (true) or VALUE_NUMBER_FLOAT (false). */
    readonly isInteger: boolean,
  ) {}
}

export type SourceValue = string | boolean | null | SourceNumber | SourceArray | SourceObject;
export type SourceArray = SourceValue[];
export type SourceObject = Map<string, SourceValue>;

export function isSourceObject(value: SourceValue | undefined): value is SourceObject {
  return value instanceof Map;
}

/**
 * Parses source bytes. A source that is not a JSON object (never stored by the document APIs) or is empty
 * reads as an empty object, as ES's Source.empty does.
 */
export function parseSource(bytes: Uint8Array): SourceObject {
  if (bytes.length === 0) return new Map();
  const parser = new JsonPullParser(bytes);
  if (parser.next() !== 'START_OBJECT') return new Map();
  const root: SourceObject = new Map();
  const stack: Array<SourceObject | SourceArray> = [root];
  let pendingKey: string | undefined;
  const add = (value: SourceValue): void => {
    const top = stack[stack.length - 1]!;
    if (top instanceof Map) top.set(pendingKey!, value);
    else top.push(value);
  };
  for (let token = parser.next(); token !== undefined; token = parser.next()) {
    switch (token) {
      case 'FIELD_NAME':
        pendingKey = parser.text;
        break;
      case 'START_OBJECT':
      case 'START_ARRAY': {
        const container: SourceObject | SourceArray = token === 'START_OBJECT' ? new Map() : [];
        add(container);
        stack.push(container);
        break;
      }
      case 'END_OBJECT':
      case 'END_ARRAY':
        stack.pop();
        if (stack.length === 0) return root;
        break;
      case 'VALUE_STRING':
        add(parser.text);
        break;
      case 'VALUE_NUMBER':
        add(new SourceNumber(parser.text, parser.isInteger));
        break;
      case 'VALUE_BOOLEAN':
        add(parser.text === 'true');
        break;
      case 'VALUE_NULL':
        add(null);
        break;
    }
  }
  return root;
}
