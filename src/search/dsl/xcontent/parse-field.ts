/**
 * ES's ParseField: the name a request field is written under, and older names that still match it (ES logs a
 * deprecation warning for those; Gannet accepts them silently). Both the ObjectParser port and the query
 * options tables look fields up through a ParseFieldTable, so a declared field answers to all of its names.
 */

export interface ParseField {
  readonly name: string;
  readonly deprecatedNames?: readonly string[];
}

export class ParseFieldTable<V> {
  private readonly byName = new Map<string, V>();

  declare(field: string | ParseField, value: V): void {
    const { name, deprecatedNames = [] } = typeof field === 'string' ? { name: field } : field;
    for (const each of [name, ...deprecatedNames]) this.byName.set(each, value);
  }

  /** ParseField.match over every declared field: what is declared under this name, current or deprecated. */
  match(name: string | undefined): V | undefined {
    return name === undefined ? undefined : this.byName.get(name);
  }

  /** Every name that matches something (ES suggests from these, deprecated names included). */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
