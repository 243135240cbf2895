/**
 * Why a document got its score, as a tree (Lucene's Explanation): each node has a value, a description in
 * words and the details it was computed from. Values are floats (scores, parameters) or longs (counts such
 * as a term's document frequency); the kind decides how the value prints, as in Java.
 */
import { floatToJsonNumber, floatToString } from './float32.js';

/** Java's Double.toString: `1.0`, `0.5`, `1.0E-4`, `1.2345678E7` (shortest digits, as JavaScript's). */
export function doubleToString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = String(abs);
    return sign + (plain.includes('.') ? plain : `${plain}.0`);
  }
  const [mantissa, exponent] = abs.toExponential().split('e') as [string, string];
  return `${sign}${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

export type ExplanationValueKind = 'float' | 'double' | 'long';

/** The JSON shape of Elasticsearch's `_explanation`. */
export interface ExplanationJson {
  value: number;
  description: string;
  details: ExplanationJson[];
}

export class Explanation {
  private constructor(
    readonly isMatch: boolean,
    /** A float (already rounded to 32 bits) or an integer, per `kind`. */
    readonly value: number,
    readonly description: string,
    readonly details: readonly Explanation[],
    readonly kind: ExplanationValueKind,
  ) {}

  /** A matching node with a float value (rounded to 32 bits, as Lucene's values are floats). */
  static match(value: number, description: string, details: readonly Explanation[] = []): Explanation {
    return new Explanation(true, Math.fround(value), description, details, 'float');
  }

  /**
   * A matching node whose value is a Java double (Lucene's value-source explanations pass doubles, e.g.
   * FunctionScoreQuery's "product of:"); it prints and serializes unrounded, as Elasticsearch does.
   */
  static matchDouble(value: number, description: string, details: readonly Explanation[] = []): Explanation {
    return new Explanation(true, value, description, details, 'double');
  }

  /** A matching node whose value is a count (Java long), printed without a fraction. */
  static matchLong(value: number, description: string, details: readonly Explanation[] = []): Explanation {
    if (!Number.isInteger(value)) throw new RangeError(`a long explanation value must be an integer, got ${value}`);
    return new Explanation(true, value, description, details, 'long');
  }

  /** A non-matching node: value 0. */
  static noMatch(description: string, details: readonly Explanation[] = []): Explanation {
    return new Explanation(false, 0, description, details, 'float');
  }

  /** The value as Java prints it: `1.0` for a float, `57` for a long. */
  valueString(): string {
    if (this.kind === 'long') return String(this.value);
    return this.kind === 'double' ? doubleToString(this.value) : floatToString(this.value);
  }

  /** Lucene's Explanation.toString(): one line per node, two spaces of indent per level. */
  toString(): string {
    const lines: string[] = [];
    const visit = (node: Explanation, depth: number): void => {
      lines.push(`${'  '.repeat(depth)}${node.valueString()} = ${node.description}`);
      for (const detail of node.details) visit(detail, depth + 1);
    };
    visit(this, 0);
    return lines.join('\n') + '\n';
  }

  /** Elasticsearch's `_explanation` object (floats print with their shortest float digits). */
  toJSON(): ExplanationJson {
    return {
      value: this.kind === 'float' ? floatToJsonNumber(this.value) : this.value,
      description: this.description,
      details: this.details.map((detail) => detail.toJSON()),
    };
  }
}
