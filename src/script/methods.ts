/**
 * The method whitelist: what a script may call on a Map, a List, a String or a number, with Java's behaviour
 * (List.remove takes an index, contains/indexOf use equals(), String indexes are UTF-16 units as in Java).
 * Dispatch is an explicit switch on the receiver's type and the method name: nothing reaches a JavaScript
 * property, so `x.constructor()` or `x.__proto__` are unknown methods and fields, never the host's.
 */
import { ScriptFailure, runtimeMessages } from './messages.js';
import { JavaNumber, int, isMap, javaClassName, javaObjectEquals, javaToString, mapGet, mapPut, normalize } from './values.js';

export const KNOWN_METHODS = new Set([
  // Map
  'get', 'put', 'remove', 'containsKey', 'containsValue', 'getOrDefault', 'keySet', 'values', 'size', 'isEmpty', 'clear', 'putAll',
  // List
  'add', 'addAll', 'set', 'contains', 'indexOf', 'lastIndexOf',
  // String
  'length', 'toLowerCase', 'toUpperCase', 'trim', 'startsWith', 'endsWith', 'substring', 'replace',
  // Number and any object
  'intValue', 'longValue', 'doubleValue', 'equals', 'toString',
]);

/** Maps and lists a script may read but not change (the top-level `params`, as ES hands it unmodifiable). */
export const readOnlyContainers = new WeakSet<object>();

/** A runtime failure raised at `offset` (the call or access being evaluated). */
export type Fail = (cause: ReturnType<(typeof runtimeMessages)[keyof typeof runtimeMessages]>) => never;

function checkWritable(container: object, fail: Fail): void {
  if (readOnlyContainers.has(container)) fail(runtimeMessages.unmodifiable());
}

/** A List/String index argument: an int (Java does not widen a long to an int parameter). */
function indexArgument(value: unknown, fail: Fail): number {
  const normalized = normalize(value);
  if (normalized instanceof JavaNumber && normalized.kind === 'int') return normalized.value as number;
  if (normalized === null) return fail(runtimeMessages.nullPointer('Cannot use a null index'));
  return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(normalized)}] to [int].`));
}

function stringArgument(value: unknown, fail: Fail): string {
  const normalized = normalize(value);
  if (typeof normalized === 'string') return normalized;
  if (normalized === null) return fail(runtimeMessages.nullPointer('Cannot use a null argument where a String is expected'));
  return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(normalized)}] to [java.lang.String].`));
}

/** A map key: maps from JSON have string keys; any other key is looked up by its string form as it would serialise. */
export function mapKey(value: unknown): string {
  return javaToString(value);
}

/** Java's List index check, with painless's negative index (counting from the end) for brace access. */
export function listIndex(list: unknown[], index: number, allowNegative: boolean, fail: Fail): number {
  const effective = allowNegative && index < 0 ? list.length + index : index;
  if (effective < 0 || effective >= list.length) fail(runtimeMessages.indexOutOfBounds(index, list.length));
  return effective;
}

function countOf(size: number): JavaNumber {
  return int(size);
}

/** Java's narrowing: a long keeps its low bits; a double truncates and saturates (NaN is 0). */
function narrow(number: JavaNumber, bits: 32 | 64): bigint {
  if (typeof number.value === 'bigint') return BigInt.asIntN(bits, number.value);
  if (number.kind === 'int') return BigInt(number.value);
  const value = number.value;
  if (Number.isNaN(value)) return 0n;
  const max = 2n ** BigInt(bits - 1) - 1n;
  const min = -(2n ** BigInt(bits - 1));
  if (value >= Number(max)) return max;
  if (value <= Number(min)) return min;
  return BigInt(Math.trunc(value));
}

export function callMethod(receiver: unknown, name: string, args: unknown[], fail: Fail): unknown {
  const target = normalize(receiver);
  if (target === null) return fail(runtimeMessages.nullPointer(`Cannot invoke [${name}] on a null value`));
  const arity = args.length;
  const notFound = (): never => fail(runtimeMessages.dynamicMethod(javaClassName(target), name, arity));
  if (name === 'equals' && arity === 1) return javaObjectEquals(target, args[0]);
  if (name === 'toString' && arity === 0) return javaToString(target);
  if (Array.isArray(target)) return listMethod(target, name, args, fail, notFound);
  if (isMap(target)) return mapMethod(target, name, args, fail, notFound);
  if (typeof target === 'string') return stringMethod(target, name, args, fail, notFound);
  if (target instanceof JavaNumber && arity === 0) {
    if (name === 'intValue') return int(Number(narrow(target, 32)));
    if (name === 'longValue') return new JavaNumber('long', narrow(target, 64));
    if (name === 'doubleValue') return new JavaNumber('double', target.toDouble());
  }
  return notFound();
}

function mapMethod(map: Record<string, unknown>, name: string, args: unknown[], fail: Fail, notFound: () => never): unknown {
  const [first, second] = args;
  switch (`${name}/${args.length}`) {
    case 'get/1':
      return mapGet(map, mapKey(first));
    case 'getOrDefault/2': {
      const key = mapKey(first);
      return Object.hasOwn(map, key) ? mapGet(map, key) : normalize(second);
    }
    case 'containsKey/1':
      return Object.hasOwn(map, mapKey(first));
    case 'containsValue/1':
      return Object.values(map).some((value) => javaObjectEquals(value, first));
    case 'put/2': {
      checkWritable(map, fail);
      const key = mapKey(first);
      const previous = mapGet(map, key);
      mapPut(map, key, second);
      return previous;
    }
    case 'putAll/1': {
      checkWritable(map, fail);
      const other = normalize(first);
      if (!isMap(other)) return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(other)}] to [java.util.Map].`));
      for (const [key, value] of Object.entries(other)) mapPut(map, key, value);
      return null;
    }
    case 'remove/1': {
      checkWritable(map, fail);
      const key = mapKey(first);
      const previous = mapGet(map, key);
      if (Object.hasOwn(map, key)) delete map[key];
      return previous;
    }
    case 'clear/0':
      checkWritable(map, fail);
      for (const key of Object.keys(map)) delete map[key];
      return null;
    // Snapshots rather than live views: a script reads them, and changes go through the map itself.
    case 'keySet/0':
      return Object.keys(map);
    case 'values/0':
      return Object.values(map).map(normalize);
    case 'size/0':
      return countOf(Object.keys(map).length);
    case 'isEmpty/0':
      return Object.keys(map).length === 0;
    default:
      return notFound();
  }
}

function listMethod(list: unknown[], name: string, args: unknown[], fail: Fail, notFound: () => never): unknown {
  const [first, second] = args;
  switch (`${name}/${args.length}`) {
    case 'add/1':
      checkWritable(list, fail);
      list.push(first);
      return true;
    case 'add/2': {
      checkWritable(list, fail);
      const index = indexArgument(first, fail);
      if (index < 0 || index > list.length) fail(runtimeMessages.indexOutOfBounds(index, list.length));
      list.splice(index, 0, second);
      return null;
    }
    case 'addAll/1': {
      checkWritable(list, fail);
      const other = normalize(first);
      if (!Array.isArray(other)) return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(other)}] to [java.util.Collection].`));
      list.push(...other);
      return other.length > 0;
    }
    case 'get/1':
      return normalize(list[listIndex(list, indexArgument(first, fail), false, fail)]);
    case 'set/2': {
      checkWritable(list, fail);
      const index = listIndex(list, indexArgument(first, fail), false, fail);
      const previous = normalize(list[index]);
      list[index] = second;
      return previous;
    }
    // List.remove(int): painless resolves by arity, and the List whitelist's remove takes an index.
    case 'remove/1': {
      checkWritable(list, fail);
      const index = listIndex(list, indexArgument(first, fail), false, fail);
      return normalize(list.splice(index, 1)[0]);
    }
    case 'contains/1':
      return list.some((item) => javaObjectEquals(item, first));
    case 'indexOf/1':
      return countOf(list.findIndex((item) => javaObjectEquals(item, first)));
    case 'lastIndexOf/1':
      return countOf(list.findLastIndex((item) => javaObjectEquals(item, first)));
    case 'size/0':
      return countOf(list.length);
    case 'isEmpty/0':
      return list.length === 0;
    case 'clear/0':
      checkWritable(list, fail);
      list.length = 0;
      return null;
    default:
      return notFound();
  }
}

function stringMethod(text: string, name: string, args: unknown[], fail: Fail, notFound: () => never): unknown {
  switch (`${name}/${args.length}`) {
    case 'length/0':
      return countOf(text.length);
    case 'isEmpty/0':
      return text.length === 0;
    case 'toLowerCase/0':
      return text.toLowerCase();
    case 'toUpperCase/0':
      return text.toUpperCase();
    case 'trim/0':
      // Java's trim removes every char <= U+0020, not Unicode whitespace.
      return text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
    case 'contains/1':
      return text.includes(stringArgument(args[0], fail));
    case 'startsWith/1':
      return text.startsWith(stringArgument(args[0], fail));
    case 'endsWith/1':
      return text.endsWith(stringArgument(args[0], fail));
    case 'indexOf/1':
      return countOf(text.indexOf(stringArgument(args[0], fail)));
    case 'lastIndexOf/1':
      return countOf(text.lastIndexOf(stringArgument(args[0], fail)));
    case 'replace/2': {
      const replacement = stringArgument(args[1], fail);
      // A function replacement, so `$&` in the replacement is literal text as in Java.
      return text.replaceAll(stringArgument(args[0], fail), () => replacement);
    }
    case 'substring/1':
    case 'substring/2': {
      const begin = indexArgument(args[0], fail);
      const end = args.length === 2 ? indexArgument(args[1], fail) : text.length;
      if (begin < 0 || end > text.length || begin > end) {
        fail(runtimeMessages.stringIndex(`begin ${begin}, end ${end}, length ${text.length}`));
      }
      return text.slice(begin, end);
    }
    default:
      return notFound();
  }
}
