/**
 * function_score's functions, as Elasticsearch computes them (org.elasticsearch.common.lucene.search.function
 * and index.query.functionscore): each gives a double factor per document and an explanation.
 *
 * - weight: WeightFactorFunction, the wrapped function's factor times the weight (a bare `weight` wraps
 *   ScoreOne, a constant 1).
 * - field_value_factor: FieldValueFactorFunction, modifier(first value * factor), `missing` when the doc has
 *   no value, an error when it has none and no `missing` or when the result is negative.
 * - gauss/exp/linear: DecayFunctionBuilder's NumericFieldDataScoreFunction. Distance per value is
 *   max(0, |value - origin| - offset); multi_value_mode picks among the distances; a doc without a value
 *   has distance 0 (so scores 1), as ES's FieldData.replaceMissing(..., 0) gives.
 */
import { EsError, errors } from '../../../common/errors.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { doubleToString, Explanation } from '../../explanation.js';
import { floatToString, fround } from '../../float32.js';
import { docDoubles } from './doc-doubles.js';

export type FieldValueModifier = 'none' | 'log' | 'log1p' | 'log2p' | 'ln' | 'ln1p' | 'ln2p' | 'square' | 'sqrt' | 'reciprocal';
export type DecayShape = 'gauss' | 'linear' | 'exp';
export type MultiValueMode = 'min' | 'max' | 'avg' | 'sum' | 'median';

export interface LeafScoreFunction {
  score(doc: number, subQueryScore: number): number;
  explain(doc: number, subQueryScore: Explanation): Explanation;
}

export interface ScoreFunction {
  /** The function's weight in avg/sum score modes (ScoreFunction.getWeight: 1 unless wrapped in a weight). */
  readonly weight: number;
  leaf(leaf: LeafContext): LeafScoreFunction;
  describe(): string;
}

/** A bare `weight`'s inner function: 1 for every document (WeightFactorFunction.ScoreOne). */
export class ScoreOne implements ScoreFunction {
  readonly weight = 1;

  leaf(): LeafScoreFunction {
    return { score: () => 1, explain: () => Explanation.match(1, 'constant score 1.0 - no function provided') };
  }

  describe(): string {
    return 'score one';
  }
}

export class WeightFactorFunction implements ScoreFunction {
  readonly weight: number;

  constructor(
    weight: number,
    readonly inner: ScoreFunction = new ScoreOne(),
  ) {
    this.weight = fround(weight);
  }

  leaf(leaf: LeafContext): LeafScoreFunction {
    const inner = this.inner.leaf(leaf);
    const weight = this.weight;
    return {
      score: (doc, subQueryScore) => inner.score(doc, subQueryScore) * weight,
      explain: (doc, subQueryScore) => {
        const explanation = inner.explain(doc, subQueryScore);
        return Explanation.match(fround(explanation.value) * weight, 'product of:', [explanation, Explanation.match(weight, 'weight')]);
      },
    };
  }

  describe(): string {
    return `weight(${floatToString(this.weight)}, ${this.inner.describe()})`;
  }
}

const MODIFIERS: Readonly<Record<FieldValueModifier, (value: number) => number>> = {
  none: (n) => n,
  log: (n) => Math.log10(n),
  log1p: (n) => Math.log10(n + 1),
  log2p: (n) => Math.log10(n + 2),
  ln: (n) => Math.log(n),
  ln1p: (n) => Math.log1p(n),
  ln2p: (n) => Math.log1p(n + 1),
  square: (n) => Math.pow(n, 2),
  sqrt: (n) => Math.sqrt(n),
  reciprocal: (n) => 1.0 / n,
};

export interface FieldValueFactorOptions {
  readonly field: string;
  readonly factor: number;
  readonly modifier: FieldValueModifier;
  readonly missing?: number;
  readonly scalingFactor?: number;
}

export class FieldValueFactorFunction implements ScoreFunction {
  readonly weight = 1;
  private readonly factor: number;

  constructor(private readonly options: FieldValueFactorOptions) {
    this.factor = fround(options.factor);
  }

  leaf(leaf: LeafContext): LeafScoreFunction {
    const { field, modifier, missing, scalingFactor } = this.options;
    const values = docDoubles(leaf, field, scalingFactor);
    const factor = this.factor;
    const score = (doc: number): number => {
      const docValues = values(doc);
      let value: number;
      if (docValues.length > 0) value = docValues[0]!;
      else if (missing !== undefined) value = missing;
      else throw new EsError('exception', `Missing value for field [${field}]`);
      const result = MODIFIERS[modifier](value * factor);
      if (result < 0) {
        let message = `field value function must not produce negative scores, but got: [${doubleToString(result)}] for field value: [${doubleToString(value)}]`;
        if (modifier === 'ln') message += '; consider using ln1p or ln2p instead of ln to avoid negative scores';
        else if (modifier === 'log') message += '; consider using log1p or log2p instead of log to avoid negative scores';
        throw errors.illegalArgument(message);
      }
      return result;
    };
    const missingText = missing === undefined ? '' : `?:${doubleToString(missing)}`;
    return {
      score,
      explain: (doc) => Explanation.match(score(doc), `field value function: ${modifier}(doc['${field}'].value${missingText} * factor=${floatToString(factor)})`),
    };
  }

  describe(): string {
    return `field_value_factor(${this.options.field})`;
  }
}

export interface DecayOptions {
  readonly shape: DecayShape;
  readonly field: string;
  readonly origin: number;
  readonly scale: number;
  readonly offset: number;
  readonly decay: number;
  readonly multiValueMode: MultiValueMode;
  readonly scalingFactor?: number;
}

/** DecayFunction per shape: processScale once, evaluate per distance, and the formula explain prints. */
const SHAPES: Readonly<Record<DecayShape, { process(scale: number, decay: number): number; evaluate(value: number, scale: number): number; explain(valueText: string, scale: number): string }>> = {
  gauss: {
    process: (scale, decay) => (0.5 * Math.pow(scale, 2.0)) / Math.log(decay),
    evaluate: (value, scale) => Math.exp((0.5 * Math.pow(value, 2.0)) / scale),
    explain: (valueText, scale) => `exp(-0.5*pow(${valueText},2.0)/${doubleToString(-1 * scale)})`,
  },
  exp: {
    process: (scale, decay) => Math.log(decay) / scale,
    evaluate: (value, scale) => Math.exp(scale * value),
    explain: (valueText, scale) => `exp(- ${valueText} * ${doubleToString(-1 * scale)})`,
  },
  linear: {
    process: (scale, decay) => scale / (1.0 - decay),
    evaluate: (value, scale) => Math.max(0.0, (scale - value) / scale),
    explain: (valueText, scale) => `max(0.0, ((${doubleToString(scale)} - ${valueText})/${doubleToString(scale)})`,
  },
};

/** MultiValueMode.select over sorted doubles (no rounding: these are doubles). */
function select(mode: MultiValueMode, sorted: readonly number[]): number {
  const count = sorted.length;
  switch (mode) {
    case 'min':
      return sorted[0]!;
    case 'max':
      return sorted[count - 1]!;
    case 'sum':
      return sorted.reduce((a, b) => a + b, 0);
    case 'avg':
      return sorted.reduce((a, b) => a + b, 0) / count;
    case 'median':
      return count % 2 === 1 ? sorted[(count - 1) / 2]! : (sorted[count / 2 - 1]! + sorted[count / 2]!) / 2;
  }
}

export class DecayFunction implements ScoreFunction {
  readonly weight = 1;
  private readonly scale: number;

  constructor(private readonly options: DecayOptions) {
    if (options.scale <= 0) throw errors.illegalArgument('function_score : scale must be > 0.0.');
    if (options.decay <= 0 || options.decay >= 1) throw errors.illegalArgument('function_score : decay must be in the range [0..1].');
    if (options.offset < 0) throw errors.illegalArgument('function_score : offset must be > 0.0');
    this.scale = SHAPES[options.shape].process(options.scale, options.decay);
  }

  leaf(leaf: LeafContext): LeafScoreFunction {
    const { field, origin, offset, multiValueMode, scalingFactor, shape } = this.options;
    const values = docDoubles(leaf, field, scalingFactor);
    const scale = this.scale;
    const distance = (doc: number): number => {
      const docValues = values(doc);
      if (docValues.length === 0) return 0;
      const distances = docValues.map((value) => Math.max(0.0, Math.abs(value - origin) - offset)).sort((a, b) => a - b);
      return select(multiValueMode, distances);
    };
    const score = (doc: number): number => SHAPES[shape].evaluate(distance(doc), scale);
    return {
      score,
      explain: (doc) => {
        const docValues = values(doc);
        const terms = docValues.map(
          (value) => `Math.max(Math.abs(${doubleToString(value)}(=doc value) - ${doubleToString(origin)}(=origin))) - ${doubleToString(offset)}(=offset), 0)`,
        );
        const distanceText = `${multiValueMode.toUpperCase()}[${terms.length === 0 ? '0.0' : terms.join(', ')}]`;
        const value = distance(doc);
        return Explanation.match(score(doc), `Function for field ${field}:`, [Explanation.match(SHAPES[shape].evaluate(value, scale), SHAPES[shape].explain(distanceText, scale))]);
      },
    };
  }

  describe(): string {
    return `${this.options.shape}(${this.options.field})`;
  }
}
