/**
 * ES's HighlightPhase: which fields a `highlight` section asks for (patterns resolve to mapped fields, and a
 * field reached only through a pattern must be text or keyword), which query each is highlighted with (its
 * highlight_query, the section's, or the search query), where the values come from (the field's `_source`
 * value fetcher, so keywords are normalized and ignore_above values skipped), and the per-hit output: field ->
 * fragments, in the iteration order of ES's HashMap, fields without fragments left out.
 *
 * `unified` (ES's default, also when no type is given) runs the unified highlighter (unified/); `plain`
 * runs the plain highlighter exactly; `fvh` also runs the plain highlighter (Gannet has no term-vector
 * highlighter), so its fragments differ from ES's wherever the FVH cuts text at boundary characters.
 */
import type { QueryAst } from '../dsl/ast/query-ast.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { javaHashMapOrder } from '../../mapping/value-preview.js';
import { FieldCatalog, type MappedField } from '../fetch/field-catalog.js';
import type { FetchIndexContext } from '../fetch/fields.js';
import type { SourceObject } from '../fetch/source-tree.js';
import { sourceValueFetcher, type ValueFetcher } from '../fetch/value-fetchers.js';
import { HighlightQueryBuilder } from './ast-to-query.js';
import { indexAnalyzer } from './field-analysis.js';
import type { HighlightFieldOptions, HighlightSpec } from './highlight-options.js';
import type { HighlightQuery } from './highlight-query.js';
import { DEFAULT_MAX_ANALYZED_OFFSET, plainHighlight } from './plain-highlighter.js';
import type { Analyzer } from '../../analysis/index.js';
import { unifiedHighlight } from './unified/unified-highlighter.js';

export interface HighlightIndexContext extends FetchIndexContext {
  /** index.highlight.max_analyzed_offset (default 1,000,000). */
  readonly maxAnalyzedOffset?: number;
  /** index.highlight.weight_matches_mode.enabled (default true). */
  readonly weightMatchesEnabled?: boolean;
}

/** The search query, as an AST to build from, or already built (e.g. from the DSL's query plan). */
export type SearchQueryInput = { readonly ast: QueryAst | undefined } | { readonly built: HighlightQuery };

const HIGHLIGHTER_TYPES = new Set(['unified', 'plain', 'fvh']);

interface FieldHighlighter {
  readonly fieldName: string;
  readonly field: MappedField;
  readonly options: HighlightFieldOptions;
  readonly query: HighlightQuery;
  readonly values: ValueFetcher;
  readonly analyzer: Analyzer;
}

export class HighlightPhase {
  private constructor(
    private readonly context: HighlightIndexContext,
    private readonly fields: readonly FieldHighlighter[],
  ) {}

  /**
   * HighlightPhase.getProcessor: resolves fields and queries once per request. Throws ES's 400 for an
   * unknown highlighter type.
   */
  static create(context: HighlightIndexContext, spec: HighlightSpec, searchQuery: SearchQueryInput): HighlightPhase {
    const catalog = FieldCatalog.of(context.mapping, context.mappingSettings);
    const builder = new HighlightQueryBuilder({ catalog, analysis: context.analysis });
    const mainQuery: HighlightQuery = 'built' in searchQuery ? searchQuery.built : searchQuery.ast === undefined ? { type: 'match_all' } : builder.build(searchQuery.ast);
    const byName = new Map<string, FieldHighlighter>();
    for (const { field: pattern, options } of spec.fields) {
      const type = options.type ?? 'unified';
      if (!HIGHLIGHTER_TYPES.has(type)) throw illegalArgument(`unknown highlighter type [${type}] for the field [${pattern}]`);
      const hasWildcard = pattern.includes('*');
      const names = hasWildcard ? catalog.matchingFieldNames(pattern) : [pattern];
      const query = options.highlightQuery === undefined ? mainQuery : builder.build(options.highlightQuery);
      for (const name of names) {
        const field = catalog.get(name);
        if (field === undefined) continue;
        if (hasWildcard && field.options.type !== 'text' && field.options.type !== 'keyword') continue;
        // The fast vector highlighter cannot work without term vectors; a pattern skips such fields.
        if (type === 'fvh' && !hasTermVectorOffsets(field)) {
          if (hasWildcard) continue;
          throw illegalArgument(`the field [${name}] should be indexed with term vector with position offsets to be used with fast vector highlighter`);
        }
        byName.set(name, {
          fieldName: name,
          field,
          options,
          query,
          values: sourceValueFetcher(field, catalog, undefined, context.analysis),
          analyzer: indexAnalyzer(field, context.analysis),
        });
      }
    }
    return new HighlightPhase(context, [...byName.values()]);
  }

  /** The hit's `highlight` section: field -> fragments in ES's order; undefined when no field has any. */
  highlight(source: SourceObject | null, hit: { readonly id: string }): Map<string, string[]> | undefined {
    const found = new Map<string, string[]>();
    for (const highlighter of this.fields) {
      const values = source === null ? [] : highlighter.values.fetch(source).values.map((value) => (typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : value.text));
      const common = {
        fieldName: highlighter.fieldName,
        values,
        analyzer: highlighter.analyzer,
        query: highlighter.query,
        options: highlighter.options,
        indexMaxAnalyzedOffset: this.context.maxAnalyzedOffset ?? DEFAULT_MAX_ANALYZED_OFFSET,
        hitId: hit.id,
        index: this.context.index,
      };
      const type = highlighter.options.type ?? 'unified';
      const fieldOptions = highlighter.field.options;
      const fragments =
        type === 'unified'
          ? unifiedHighlight({
              ...common,
              tokenized: fieldOptions.type === 'text',
              offsetsIndexed: fieldOptions.type === 'text' && (fieldOptions.indexOptions === 'offsets' || hasTermVectorOffsets(highlighter.field)),
              positionIncrementGap: fieldOptions.type === 'text' ? fieldOptions.positionIncrementGap : 0,
              weightMatchesEnabled: this.context.weightMatchesEnabled ?? true,
            })
          : plainHighlight(common);
      if (fragments !== undefined) found.set(highlighter.fieldName, fragments);
    }
    if (found.size === 0) return undefined;
    const names = [...found.keys()];
    return new Map(javaHashMapOrder(names).map((index) => [names[index]!, found.get(names[index]!)!]));
  }
}

function hasTermVectorOffsets(field: MappedField): boolean {
  return field.options.type === 'text' && field.options.termVector.startsWith('with_positions_offsets');
}
