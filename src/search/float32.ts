/**
 * Java `float` arithmetic in JavaScript. Lucene computes scores in 32-bit floats; to get bit-equal scores we
 * round with Math.fround after every operation Lucene performs in float. Rounding the double result of one
 * +, -, * or / of two floats to float gives exactly Java's float result (a double has more than twice the
 * bits of a float, so the double rounding is innocuous), which is why a single fround per operation is enough.
 */

export const fround = Math.fround;

const scratchFloat = new Float32Array(1);
const scratchBits = new Int32Array(scratchFloat.buffer);

/** Java's Math.nextUp(float): the smallest float greater than `value`. */
export function nextUpFloat(value: number): number {
  const f = Math.fround(value);
  if (Number.isNaN(f) || f === Infinity) return f;
  if (f === 0) return 1.401298464324817e-45; // Float.MIN_VALUE
  scratchFloat[0] = f;
  scratchBits[0] += f > 0 ? 1 : -1;
  return scratchFloat[0]!;
}

/** The shortest decimal digits that read back as the same float (what Java's Float.toString aims for). */
function shortestFloatDigits(value: number): string {
  for (let precision = 1; precision <= 9; precision++) {
    const text = value.toPrecision(precision);
    if (Math.fround(Number(text)) === value) return text;
  }
  return value.toPrecision(9);
}

/**
 * A float as Java's Float.toString prints it: "1.0", "0.2876821", "1.0E-4", "1.2345679E7". Explanation
 * descriptions embed values this way (`score(freq=1.0)`, `phraseFreq=0.5`).
 */
export function floatToString(value: number): string {
  const f = Math.fround(value);
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return 'Infinity';
  if (f === -Infinity) return '-Infinity';
  if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(f);
  const digits = Number(shortestFloatDigits(abs));
  const sign = f < 0 ? '-' : '';
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = String(digits);
    // String() of a number below 1e21 and at least 1e-6 is plain decimal notation.
    return sign + (plain.includes('.') ? plain : `${plain}.0`);
  }
  const [mantissa, exponent] = digits.toExponential().split('e') as [string, string];
  const javaMantissa = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${sign}${javaMantissa}E${Number(exponent)}`;
}

/**
 * The JavaScript number whose shortest printing is the float's shortest printing: JSON.stringify of the
 * result writes `2.2` for the float 2.2f (the raw double would print 2.200000047683716), as Jackson does
 * for a Java float in Elasticsearch's responses.
 */
export function floatToJsonNumber(value: number): number {
  const f = Math.fround(value);
  if (!Number.isFinite(f) || f === 0) return f;
  return Number(shortestFloatDigits(f));
}
