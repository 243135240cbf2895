/**
 * The constructors the subset whitelists: `new HashMap()` and `new ArrayList()`, empty, with an initial capacity
 * (checked as Java checks it, otherwise ignored) or copying a collection (a shallow copy, as Java's copy constructors).
 */
import { runtimeMessages } from './messages.js';
import type { Fail } from './methods.js';
import { JavaNumber, isMap, javaClassName, mapPut, normalize } from './values.js';

function capacity(value: JavaNumber, type: 'HashMap' | 'ArrayList', fail: Fail): void {
  if (value.kind !== 'int') fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(value)}] to [int].`));
  const size = value.value as number;
  // HashMap(int) and ArrayList(int) word their negative-capacity errors differently.
  if (size < 0) fail(runtimeMessages.illegalArgument(type === 'HashMap' ? `Illegal initial capacity: ${size}` : `Illegal Capacity: ${size}`));
}

export function construct(type: 'HashMap' | 'ArrayList', args: readonly unknown[], fail: Fail): unknown {
  const arg = args.length === 0 ? undefined : normalize(args[0]);
  if (arg instanceof JavaNumber) {
    capacity(arg, type, fail);
    return type === 'HashMap' ? {} : [];
  }
  if (arg === null) return fail(runtimeMessages.nullPointer(`Cannot construct a [java.util.${type}] from a null value`));
  if (type === 'HashMap') {
    const map: Record<string, unknown> = {};
    if (arg === undefined) return map;
    if (!isMap(arg)) return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(arg)}] to [java.util.Map].`));
    for (const [key, value] of Object.entries(arg)) mapPut(map, key, value);
    return map;
  }
  if (arg === undefined) return [];
  if (!Array.isArray(arg)) return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(arg)}] to [java.util.Collection].`));
  return [...arg];
}
