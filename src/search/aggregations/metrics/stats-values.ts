/**
 * The values stats and extended_stats expose, by name, from their running totals (InternalStats and
 * InternalExtendedStats): what responses print and what bucket orders like `"order": {"s.avg": "asc"}` read.
 */
export interface StatsTotals {
  readonly count: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
}

export interface ExtendedStatsTotals extends StatsTotals {
  readonly sumOfSquares: number;
  readonly sigma: number;
}

export function statsValue(name: string, s: StatsTotals): number {
  switch (name) {
    case 'count':
      return s.count;
    case 'sum':
      return s.sum;
    case 'min':
      return s.min;
    case 'max':
      return s.max;
    case 'avg':
      return s.sum / s.count;
    default:
      throw new RangeError(`Unknown value [${name}] in common stats aggregation`);
  }
}

export function variancePopulation(s: ExtendedStatsTotals): number {
  const variance = (s.sumOfSquares - (s.sum * s.sum) / s.count) / s.count;
  return variance < 0 ? 0 : variance;
}

export function varianceSampling(s: ExtendedStatsTotals): number {
  const variance = (s.sumOfSquares - (s.sum * s.sum) / s.count) / (s.count - 1);
  return variance < 0 ? 0 : variance;
}

export function extendedStatsValue(name: string, s: ExtendedStatsTotals): number {
  const avg = s.sum / s.count;
  switch (name) {
    case 'sum_of_squares':
      return s.sumOfSquares;
    case 'variance':
    case 'variance_population':
      return variancePopulation(s);
    case 'variance_sampling':
      return varianceSampling(s);
    case 'std_deviation':
    case 'std_deviation_population':
      return Math.sqrt(variancePopulation(s));
    case 'std_deviation_sampling':
      return Math.sqrt(varianceSampling(s));
    case 'std_upper':
    case 'std_upper_population':
      return avg + Math.sqrt(variancePopulation(s)) * s.sigma;
    case 'std_lower':
    case 'std_lower_population':
      return avg - Math.sqrt(variancePopulation(s)) * s.sigma;
    case 'std_upper_sampling':
      return avg + Math.sqrt(varianceSampling(s)) * s.sigma;
    case 'std_lower_sampling':
      return avg - Math.sqrt(varianceSampling(s)) * s.sigma;
    default:
      return statsValue(name, s);
  }
}
