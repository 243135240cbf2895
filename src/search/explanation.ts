/**
 * Why a document got its score, as a tree (Lucene's Explanation): each node has a value, a description in
 * words and the details it was computed from. Values are floats (scores, parameters) or longs (counts such
 * as a term's document frequency); the kind decides how the value prints, as in Java.
 */
import { floatToJsonNumber, floatToString } from './float32.js';

export type ExplanationValueKind = 'float' | 'long';

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
    return this.kind === 'long' ? String(this.value) : floatToString(this.value);
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
      value: this.kind === 'long' ? this.value : floatToJsonNumber(this.value),
      description: this.description,
      details: this.details.map((detail) => detail.toJSON()),
    };
  }
}
