/**
 * The "Preview of field's value" in ES's field errors: the value read back as Java objects (HashMap, ArrayList,
 * Integer/Long/Double, String) and printed with their toString. Maps print in java.util.HashMap iteration
 * order, which differs from the document's order, so that is reproduced too.
 */
import type { JsonPullParser } from './json-pull-parser.js';
import { javaNumberLiteralString } from './java-numbers.js';

type PreviewNode = string | PreviewNode[] | PreviewMap;

interface PreviewMap {
  readonly keys: string[];
  readonly values: PreviewNode[];
}

/** Reads the value at the parser's current token (consuming a whole object or array) and renders it. */
export function readValuePreview(parser: JsonPullParser): string {
  return render(readNode(parser));
}

function scalar(parser: JsonPullParser): string {
  switch (parser.token) {
    case 'VALUE_NUMBER':
      return javaNumberLiteralString(parser.text, parser.isInteger);
    case 'VALUE_NULL':
      return 'null';
    default:
      return parser.text;
  }
}

// Iterative: a value may nest as deep as the parser allows.
function readNode(parser: JsonPullParser): PreviewNode {
  if (parser.token !== 'START_OBJECT' && parser.token !== 'START_ARRAY') return scalar(parser);
  const root: PreviewNode = parser.token === 'START_OBJECT' ? { keys: [], values: [] } : [];
  const stack: PreviewNode[] = [root];
  let pendingName = '';
  while (stack.length > 0) {
    const token = parser.next();
    if (token === undefined) break;
    const top = stack[stack.length - 1]!;
    if (token === 'END_OBJECT' || token === 'END_ARRAY') {
      stack.pop();
      continue;
    }
    if (token === 'FIELD_NAME') {
      pendingName = parser.text;
      continue;
    }
    const node: PreviewNode =
      token === 'START_OBJECT' ? { keys: [], values: [] } : token === 'START_ARRAY' ? [] : scalar(parser);
    if (Array.isArray(top)) top.push(node);
    else if (typeof top === 'object') {
      top.keys.push(pendingName);
      top.values.push(node);
    }
    if (token === 'START_OBJECT' || token === 'START_ARRAY') stack.push(node);
  }
  return root;
}

function render(node: PreviewNode): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return `[${node.map(render).join(', ')}]`;
  const order = javaHashMapOrder(node.keys);
  return `{${order.map((i) => `${node.keys[i]}=${render(node.values[i]!)}`).join(', ')}}`;
}

/** Java's String.hashCode over UTF-16 code units. */
export function javaStringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * The iteration order of a java.util.HashMap filled with these keys in this order: by bucket of the spread
 * hash in the final table size (16, doubling past 75% load), insertion order within a bucket.
 */
export function javaHashMapOrder(keys: readonly string[]): number[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const bucketOf = (key: string): number => {
    const h = javaStringHash(key);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return keys
    .map((key, index) => ({ index, bucket: bucketOf(key) }))
    .sort((a, b) => a.bucket - b.bucket || a.index - b.index)
    .map((entry) => entry.index);
}
