/**
 * Checks a template before it enters the cluster metadata, as MetadataIndexTemplateService.validate and
 * validateTemplate do: the name and patterns by ES's rules (all problems reported at once as an
 * invalid_index_template_exception), the settings as index settings, the aliases as alias names, and the
 * mappings by building them the way index creation would.
 */
import { EsError, templateErrors } from '../../../common/errors.js';
import { AnalysisRegistry } from '../../../analysis/index.js';
import { checkMappingLimits, parseMapping, serializeMapping } from '../../../mapping/index.js';
import { validateMapping } from '../../../mapping/mapping-merge.js';
import { readIndexSettings, validateUserSettings } from '../../../indices/index.js';
import { parseAliasDefinition, validateAliasStandalone } from '../alias-definitions.js';
import { isMatchAllPattern } from './pattern-overlap.js';

/** Strings.INVALID_FILENAME_CHARS, printed in the order ES's HashSet iterates (as index-name.ts prints it). */
const INVALID_FILENAME_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];
const INVALID_FILENAME_CHARS_TEXT = '[ , ", *, \\, <, |, ,, >, /, ?]';

function validFileNameExcludingAsterisk(pattern: string): boolean {
  return !INVALID_FILENAME_CHARS.some((char) => char !== '*' && pattern.includes(char));
}

/** MetadataIndexTemplateService.validate(name, settings, patterns, aliases). */
export function validateTemplateShape(
  name: string,
  settings: Readonly<Record<string, string>> | undefined,
  indexPatterns: readonly string[],
  aliases: Readonly<Record<string, unknown>>,
): void {
  const problems: string[] = [];
  if (name.includes(' ')) problems.push('name must not contain a space');
  if (name.includes(',')) problems.push("name must not contain a ','");
  if (name.includes('#')) problems.push("name must not contain a '#'");
  if (name.includes('*')) problems.push("name must not contain a '*'");
  if (name.startsWith('_')) problems.push("name must not start with '_'");
  if (name.toLowerCase() !== name) problems.push('name must be lower cased');
  for (const pattern of indexPatterns) {
    if (pattern.includes(' ')) problems.push(`index_patterns [${pattern}] must not contain a space`);
    if (pattern.includes(',')) problems.push(`index_pattern [${pattern}] must not contain a ','`);
    if (pattern.includes('#')) problems.push(`index_pattern [${pattern}] must not contain a '#'`);
    if (pattern.includes(':')) problems.push(`index_pattern [${pattern}] must not contain a ':'`);
    if (pattern.startsWith('_')) problems.push(`index_pattern [${pattern}] must not start with '_'`);
    if (!validFileNameExcludingAsterisk(pattern)) problems.push(`index_pattern [${pattern}] must not contain the following characters ${INVALID_FILENAME_CHARS_TEXT}`);
  }
  if (settings !== undefined) {
    try {
      validateUserSettings(settings, 'create');
    } catch (err) {
      if (!(err instanceof EsError)) throw err;
      problems.push(err.reason);
    }
  }
  if (indexPatterns.some(isMatchAllPattern) && settings?.['index.hidden'] !== undefined) {
    problems.push('global templates may not specify the setting index.hidden');
  }
  if (problems.length > 0) throw templateErrors.invalid(name, templateErrors.validationFailed(problems));
  for (const [alias, definition] of Object.entries(aliases)) {
    // Only partly, as ES does: the index the alias will point to is not known yet.
    validateAliasStandalone(alias, parseAliasDefinition(definition));
    if (indexPatterns.includes(alias)) throw templateErrors.aliasSameAsPattern(alias, indexPatterns);
  }
}

/**
 * validateTemplate: the mapping must build against an index with these settings (dummy shard counts as ES
 * uses). Throws the mapping layer's own error (mapper_parsing_exception ...), as ES lets it through.
 */
export function validateTemplateMapping(
  settings: Readonly<Record<string, string>> | undefined,
  mappings: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (mappings === undefined) return undefined;
  const view = readIndexSettings({ ...(settings ?? {}), 'index.number_of_shards': settings?.['index.number_of_shards'] ?? '1' });
  const analysis = AnalysisRegistry.forIndex(view.analysis, 'validate-template');
  const parsed = parseMapping(mappings, { settings: view.mapping, analyzerExists: (analyzer) => analysis.findAnalyzer(analyzer) !== undefined });
  validateMapping(parsed);
  checkMappingLimits(parsed, view.mapping);
  // The mapping as an index built from it would print it (what the simulate APIs show).
  return serializeMapping(parsed);
}
