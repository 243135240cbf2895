/**
 * function_score's functions against the mapping (ScoreFunctionBuilder.toFunction): filters built, decay
 * parameters read per field type (DecayFunctionBuilder.parseVariable: numbers for numeric fields, dates and
 * time values for date fields), field_value_factor checked against its field.
 */
import { EsError } from '../../../common/errors.js';
import { parseTimeValueMillis } from '../../../common/time-value.js';
import type { FilterFunction, JsonValue, QueryAst, ScoreFunction } from '../ast/query-ast.js';
import { elasticsearchParseError, parsingError } from '../xcontent/xcontent-errors.js';
import type { BuildContext } from './build-context.js';
import { typeName } from './field-lookup.js';
import type { PlanFilterFunction, PlanQuery, PlanScoreFunction } from './query-plan.js';
import { objectToDouble, parseDateBound } from './value-conversion.js';

export function buildFunctions(functions: readonly FilterFunction[], context: BuildContext, buildFilter: (query: QueryAst) => PlanQuery): PlanFilterFunction[] {
  return functions.map((entry) => ({
    ...(entry.filter !== undefined && { filter: buildFilter(entry.filter) }),
    function: buildScoreFunction(entry.function, context),
    ...(entry.weight !== undefined && { weight: entry.weight }),
  }));
}

function buildScoreFunction(fn: ScoreFunction, context: BuildContext): PlanScoreFunction {
  switch (fn.type) {
    case 'weight':
      return { kind: 'weight' };
    case 'field_value_factor':
      if (context.fields.get(fn.field) === undefined && fn.missing === undefined) {
        throw new EsError('exception', `Unable to find a field mapper for field [${fn.field}]. No 'missing' value defined.`);
      }
      return {
        kind: 'field_value_factor',
        field: fn.field,
        factor: fn.factor,
        modifier: fn.modifier,
        ...(fn.missing !== undefined && { missing: fn.missing }),
        ...scalingOf(context, fn.field),
      };
    case 'decay':
      return buildDecay(fn, context);
  }
}

/** A scaled_float's scaling factor, which turns its stored longs back into values. */
function scalingOf(context: BuildContext, name: string): { scalingFactor?: number } {
  const field = context.fields.get(name);
  if (field?.kind === 'mapped' && field.options.type === 'scaled_float') return { scalingFactor: field.options.scalingFactor ?? 1 };
  return {};
}

function scalarText(value: JsonValue): string {
  if (value === null || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function scalarDouble(value: JsonValue): number {
  if (value === null || typeof value === 'object') throw elasticsearchParseError(`failed to parse [${JSON.stringify(value)}] as a number`);
  return objectToDouble(value);
}

function buildDecay(fn: Extract<ScoreFunction, { type: 'decay' }>, context: BuildContext): PlanScoreFunction {
  const field = context.fields.get(fn.field);
  if (field === undefined) throw parsingError(undefined, `unknown field [${fn.field}]`);
  const type = field.kind === 'mapped' ? field.options.type : undefined;
  const isDate = type === 'date' || type === 'date_nanos';
  const isNumeric = type !== undefined && !isDate && type !== 'text' && type !== 'keyword' && type !== 'boolean' && type !== 'ip' && type !== 'binary';
  if (!isDate && !isNumeric) {
    throw parsingError(undefined, `field [${fn.field}] is of type [${typeName(field)}], but only numeric types are supported.`);
  }
  for (const name of Object.keys(fn.params)) {
    if (name !== 'origin' && name !== 'scale' && name !== 'offset' && name !== 'decay') {
      throw elasticsearchParseError(`parameter [${name}] not supported!`);
    }
  }
  const { origin, scale, offset, decay } = fn.params;
  const decayValue = decay === undefined ? 0.5 : scalarDouble(decay);
  if (field.kind === 'mapped' && (field.options.type === 'date' || field.options.type === 'date_nanos')) {
    const formatter = field.options.formatter;
    const originMillis = origin === undefined ? context.now() : parseDateBound(scalarText(origin), { formatter, zone: undefined, roundUp: false, now: context.now });
    if (scale === undefined) throw elasticsearchParseError('[scale] must be set for date fields.');
    // date_nanos doc values are nanoseconds: the origin and the time values are converted to the same unit.
    const unit = field.options.type === 'date_nanos' ? 1_000_000 : 1;
    return {
      kind: 'decay',
      shape: fn.shape,
      field: fn.field,
      origin: originMillis * unit,
      scale: parseTimeValueMillis(scalarText(scale), 'DecayFunctionParser.scale') * unit,
      offset: parseTimeValueMillis(offset === undefined ? '0d' : scalarText(offset), 'DecayFunctionParser.offset') * unit,
      decay: decayValue,
      multiValueMode: fn.multiValueMode,
    };
  }
  if (scale === undefined || origin === undefined) throw elasticsearchParseError('both [scale] and [origin] must be set for numeric fields.');
  return {
    kind: 'decay',
    shape: fn.shape,
    field: fn.field,
    origin: scalarDouble(origin),
    scale: scalarDouble(scale),
    offset: offset === undefined ? 0 : scalarDouble(offset),
    decay: decayValue,
    multiValueMode: fn.multiValueMode,
    ...scalingOf(context, fn.field),
  };
}
