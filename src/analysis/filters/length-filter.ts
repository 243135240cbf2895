/** Lucene's LengthFilter: keeps terms whose length in UTF-16 chars is within [min, max]. */
import { FilteringTokenFilter, type TokenStream } from '../token-stream.js';

export class LengthFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly min: number,
    private readonly max: number,
  ) {
    super(input);
    if (min < 0) throw new RangeError('minimum length must be greater than or equal to zero');
    if (min > max) throw new RangeError('maximum length must not be greater than minimum length');
  }

  protected accept(): boolean {
    const length = this.token.term.length;
    return length >= this.min && length <= this.max;
  }
}
