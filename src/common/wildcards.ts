/** Simple `*` wildcard matching, as ES's Regex.simpleMatch does it (only `*` is special). */

export function isSimplePattern(pattern: string): boolean {
  return pattern.includes('*');
}

export function simpleMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!value.startsWith(first)) return false;
  let position = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = value.indexOf(parts[i]!, position);
    if (found < 0) return false;
    position = found + parts[i]!.length;
  }
  return value.length - last.length >= position && value.endsWith(last);
}

export function simpleMatchAny(patterns: readonly string[], value: string): boolean {
  return patterns.some((pattern) => simpleMatch(pattern, value));
}
