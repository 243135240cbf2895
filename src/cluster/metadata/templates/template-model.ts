/**
 * Index templates as the cluster metadata keeps them (ES's ComponentTemplate, ComposableIndexTemplate and the
 * legacy IndexTemplateMetadata). Settings are stored flat with the `index.` prefix, as ES normalises them;
 * mappings are stored without the `_doc` wrapper; aliases are kept as the request gave them (name -> definition).
 * Everything is plain JSON so the coordinator can persist it as is.
 */
import { setOwnValue } from '../../../common/own-keys.js';

/** The `template` block shared by component and composable templates. */
export interface TemplateBody {
  readonly settings?: Readonly<Record<string, string>>;
  readonly mappings?: Readonly<Record<string, unknown>>;
  readonly aliases?: Readonly<Record<string, unknown>>;
}

export interface ComponentTemplate {
  readonly template: TemplateBody;
  readonly version?: number;
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface ComposableTemplate {
  readonly indexPatterns: readonly string[];
  readonly template?: TemplateBody;
  readonly composedOf: readonly string[];
  readonly priority?: number;
  readonly version?: number;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly allowAutoCreate?: boolean;
  readonly ignoreMissingComponentTemplates?: readonly string[];
}

/** `_template`: the templates of ES 7 and before, applied only when no composable template matches. */
export interface LegacyTemplate {
  readonly order: number;
  readonly version?: number;
  readonly indexPatterns: readonly string[];
  readonly settings: Readonly<Record<string, string>>;
  readonly mappings: Readonly<Record<string, unknown>>;
  readonly aliases: Readonly<Record<string, unknown>>;
}

export interface IndexTemplates {
  readonly component: Readonly<Record<string, ComponentTemplate>>;
  readonly composable: Readonly<Record<string, ComposableTemplate>>;
  readonly legacy: Readonly<Record<string, LegacyTemplate>>;
}

export const NO_TEMPLATES: IndexTemplates = { component: {}, composable: {}, legacy: {} };

/** ES's priorityOrZero. */
export function priorityOf(template: ComposableTemplate): number {
  return template.priority ?? 0;
}

/** A copy of `record` with `name` set (or removed when `value` is undefined), keeping the others' order. */
export function withEntry<T>(record: Readonly<Record<string, T>>, name: string, value: T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, existing] of Object.entries(record)) if (key !== name) setOwnValue(out, key, existing);
  if (value !== undefined) setOwnValue(out, name, value);
  return out;
}
