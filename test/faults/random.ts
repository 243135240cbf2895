/**
 * The fault suite's seeded randomness (mulberry32): every choice of victim and moment comes from here, so a
 * failing run is repeated with `GANNET_FAULT_SEED=<the seed it printed>`.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  static fromEnvironment(): Random {
    const configured = process.env['GANNET_FAULT_SEED'];
    const seed = configured !== undefined && configured !== '' ? Number(configured) : Math.floor(Math.random() * 2 ** 31);
    return new Random(seed);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, below). */
  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  between(low: number, high: number): number {
    return low + this.int(high - low + 1);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}
