/**
 * Elasticsearch is written in Java, so a double is always printed with a fraction ("100.0", "-1.0"),
 * where JavaScript would print "100". Values that ES serialises as doubles are wrapped in JsonFloat so the
 * response writer prints them as Java's Double.toString does.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

export function jsonFloat(value: number): JsonFloat {
  return new JsonFloat(value);
}

/** Java's Double.toString for the values ES prints: "100.0", "0.5", "1.0E-5", "NaN", "Infinity". */
export function javaDoubleString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : text + '.0';
  }
  // Scientific notation: Java writes "1.0E-5" / "1.2345E7".
  const [mantissa, exponent] = value.toExponential().split('e');
  const withFraction = mantissa!.includes('.') ? mantissa! : mantissa + '.0';
  return `${withFraction}E${Number(exponent)}`;
}
