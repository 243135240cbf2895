/**
 * ES's circuit breakers (HierarchyCircuitBreakerService with ChildMemoryCircuitBreaker children), measured
 * against the node's V8 heap in the JVM heap's place (decision 0010):
 *
 *   parent             indices.breaker.total.limit             95% (70% without real memory accounting)
 *   request            indices.breaker.request.limit           60%, overhead 1.0, transient
 *   fielddata          indices.breaker.fielddata.limit         40%, overhead 1.03, permanent
 *   inflight_requests  network.breaker.inflight_requests.limit 100%, overhead 2.0, transient
 *
 * A child adds an estimate of what a request is about to hold; when its total times its overhead passes its
 * limit, or the parent's check fails, the estimate is not kept and ES's circuit_breaking_exception (429) is
 * thrown with `bytes_wanted`, `bytes_limit` and `durability`. With `indices.breaker.total.use_real_memory`
 * (the default) the parent compares what the process really holds (V8's used heap plus the external memory of
 * Buffers, which is where request bodies live) plus the new reservation against its limit; otherwise the sum of
 * the children's estimates. Limits are read from the live settings on every check, so `PUT _cluster/settings`
 * applies at once, as ES's settings consumers do.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EsError } from './errors.js';
import { byteSizeString } from './es-units.js';

export type BreakerName = 'request' | 'fielddata' | 'inflight_requests';
export type Durability = 'TRANSIENT' | 'PERMANENT';

/** What a breaker's stats print (ES's CircuitBreakerStats). */
export interface BreakerStats {
  readonly name: string;
  readonly limitBytes: number;
  readonly estimatedBytes: number;
  readonly overhead: number;
  readonly tripped: number;
}

interface ChildDefinition {
  readonly name: BreakerName;
  readonly limitKey: string;
  readonly overheadKey: string;
  readonly defaultLimit: string;
  readonly defaultOverhead: number;
  readonly durability: Durability;
}

/** The children, in the order parent messages and stats list them. */
const CHILDREN: readonly ChildDefinition[] = [
  { name: 'fielddata', limitKey: 'indices.breaker.fielddata.limit', overheadKey: 'indices.breaker.fielddata.overhead', defaultLimit: '40%', defaultOverhead: 1.03, durability: 'PERMANENT' },
  { name: 'inflight_requests', limitKey: 'network.breaker.inflight_requests.limit', overheadKey: 'network.breaker.inflight_requests.overhead', defaultLimit: '100%', defaultOverhead: 2.0, durability: 'TRANSIENT' },
  { name: 'request', limitKey: 'indices.breaker.request.limit', overheadKey: 'indices.breaker.request.overhead', defaultLimit: '60%', defaultOverhead: 1.0, durability: 'TRANSIENT' },
];

export const BREAKER_SETTING_KEYS: readonly string[] = [
  'indices.breaker.total.limit',
  'indices.breaker.total.use_real_memory',
  ...CHILDREN.flatMap((child) => [child.limitKey, child.overheadKey]),
];

/** `<bytes>/<ByteSizeValue>`, as ES prints sizes in breaker messages. */
function bytesText(bytes: number): string {
  return `${bytes}/${byteSizeString(bytes)}`;
}

/** ES's MemorySizeValue.parseBytesSizeValueOrHeapRatio: `60%` of the heap, or a byte size. */
export function parseMemorySize(value: string, heapBytes: number, setting: string): number {
  const text = value.trim();
  if (text.endsWith('%')) {
    const percent = Number(text.slice(0, -1));
    if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
      throw new EsError('parse_exception', `failed to parse [${text}] as a percentage of the heap for setting [${setting}]`);
    }
    return Math.trunc((heapBytes * percent) / 100);
  }
  const match = /^(-?\d+(?:\.\d+)?)\s*(b|kb?|mb?|gb?|tb?|pb?)?$/i.exec(text);
  if (match === null) throw new EsError('parse_exception', `failed to parse setting [${setting}] with value [${text}] as a size in bytes: unit is missing or unrecognized`);
  const units: Record<string, number> = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4, p: 1024 ** 5, pb: 1024 ** 5 };
  return Math.trunc(Number(match[1]) * units[(match[2] ?? 'b').toLowerCase()]!);
}

/** The node's memory as the breakers see it; replaceable in tests. */
export interface MemorySource {
  /** The heap's limit (the JVM's -Xmx): V8's heap_size_limit. */
  heapLimitBytes(): number;
  /** What the process holds now (the JVM's used heap): V8's used heap plus external (Buffer) memory. */
  usedBytes(): number;

  /** Collects garbage, so a check over the limit can tell garbage from live memory (ES's G1OverLimitStrategy). */
  collectGarbage?(): void;
}

let collector: (() => void) | undefined;

export const V8_MEMORY: MemorySource = {
  heapLimitBytes: () => getHeapStatistics().heap_size_limit,
  usedBytes: () => {
    const stats = getHeapStatistics();
    return stats.used_heap_size + stats.external_memory;
  },
  collectGarbage: () => {
    if (collector === undefined) {
      // V8 hands out its gc() only when asked for it by flag; the flag applies to contexts created afterwards.
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as () => void;
    }
    collector();
  },
};

/** The shortest time between two collections forced by the parent breaker (ES's G1OverLimitStrategy: 5 s). */
const GC_INTERVAL_MILLIS = 5000;

export class ChildCircuitBreaker {
  private usedBytes = 0;
  private trippedCount = 0;

  constructor(
    private readonly service: CircuitBreakerService,
    private readonly definition: ChildDefinition,
  ) {}

  get name(): BreakerName {
    return this.definition.name;
  }

  get durability(): Durability {
    return this.definition.durability;
  }

  get used(): number {
    return this.usedBytes;
  }

  get tripped(): number {
    return this.trippedCount;
  }

  get limit(): number {
    return this.service.childLimit(this.definition);
  }

  get overhead(): number {
    return this.service.childOverhead(this.definition);
  }

  /**
   * ChildMemoryCircuitBreaker.addEstimateBytesAndMaybeBreak: keeps `bytes` unless that takes this breaker (times
   * its overhead) past its limit or the parent past its own; then nothing is kept and circuit_breaking_exception
   * is thrown. `label` names what the bytes are for (`<http_request>`, an aggregation's name).
   */
  addEstimateBytesAndMaybeBreak(bytes: number, label: string): void {
    const limit = this.limit;
    const overhead = this.overhead;
    if (limit === 0) this.circuitBreak(label, bytes, limit);
    const newUsed = this.usedBytes + bytes;
    const withOverhead = Math.trunc(newUsed * overhead);
    if (limit > 0 && withOverhead > limit) this.circuitBreak(label, withOverhead, limit);
    this.usedBytes = newUsed;
    try {
      this.service.checkParentLimit(Math.trunc(bytes * overhead), label);
    } catch (err) {
      this.usedBytes -= bytes;
      throw err;
    }
  }

  /** Adjusts the estimate without any check (releases are negative). */
  addWithoutBreaking(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes + bytes);
  }

  private circuitBreak(label: string, bytesNeeded: number, limit: number): never {
    this.trippedCount++;
    const message = `[${this.name}] Data too large, data for [${label}] would be [${bytesText(bytesNeeded)}], which is larger than the limit of [${bytesText(limit)}]`;
    throw circuitBreakingError(message, bytesNeeded, limit, this.durability);
  }
}

export function circuitBreakingError(message: string, bytesWanted: number, bytesLimit: number, durability: Durability): EsError {
  return new EsError('circuit_breaking_exception', message, { metadata: { bytes_wanted: bytesWanted, bytes_limit: bytesLimit, durability } });
}

export class CircuitBreakerService {
  private readonly children = new Map<BreakerName, ChildCircuitBreaker>();
  private parentTripped = 0;
  private lastCollection = -Infinity;
  private readonly parsed = new Map<string, { raw: string | undefined; heap: number; value: number }>();

  /** @param settings the live flat settings (cluster settings over the node's) */
  constructor(
    private readonly settings: () => Readonly<Record<string, string>>,
    private readonly memory: MemorySource = V8_MEMORY,
  ) {
    for (const definition of CHILDREN) this.children.set(definition.name, new ChildCircuitBreaker(this, definition));
  }

  breaker(name: BreakerName): ChildCircuitBreaker {
    return this.children.get(name)!;
  }

  private get useRealMemory(): boolean {
    return this.settings()['indices.breaker.total.use_real_memory'] !== 'false';
  }

  /** A memory-size setting, parsed once per value and heap size. */
  private memorySetting(key: string, fallback: string): number {
    const raw = this.settings()[key];
    const heap = this.memory.heapLimitBytes();
    const cached = this.parsed.get(key);
    if (cached !== undefined && cached.raw === raw && cached.heap === heap) return cached.value;
    const value = parseMemorySize(raw ?? fallback, heap, key);
    this.parsed.set(key, { raw, heap, value });
    return value;
  }

  childLimit(definition: ChildDefinition): number {
    return this.memorySetting(definition.limitKey, definition.defaultLimit);
  }

  childOverhead(definition: ChildDefinition): number {
    const raw = this.settings()[definition.overheadKey];
    const value = raw === undefined ? NaN : Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : definition.defaultOverhead;
  }

  get parentLimit(): number {
    return this.memorySetting('indices.breaker.total.limit', this.useRealMemory ? '95%' : '70%');
  }

  private memoryUsed(newBytesReserved: number): { base: number; total: number; transient: number; permanent: number } {
    let transient = 0;
    let permanent = 0;
    for (const child of this.children.values()) {
      const used = Math.trunc(child.used * child.overhead);
      if (child.durability === 'TRANSIENT') transient += used;
      else permanent += used;
    }
    if (this.useRealMemory) {
      const current = this.memory.usedBytes();
      return { base: current, total: current + newBytesReserved, transient, permanent };
    }
    return { base: transient + permanent, total: transient + permanent, transient, permanent };
  }

  /** HierarchyCircuitBreakerService.checkParentLimit, with ES's message. */
  checkParentLimit(newBytesReserved: number, label: string): void {
    let used = this.memoryUsed(newBytesReserved);
    const limit = this.parentLimit;
    if (used.total <= limit) return;
    if (this.useRealMemory && this.memory.collectGarbage !== undefined && performance.now() - this.lastCollection > GC_INTERVAL_MILLIS) {
      // Used heap counts garbage until the next collection: collect once (at most every few seconds, as ES's
      // G1OverLimitStrategy) and look again before refusing anything.
      this.lastCollection = performance.now();
      this.memory.collectGarbage();
      used = this.memoryUsed(newBytesReserved);
      if (used.total <= limit) return;
    }
    this.parentTripped++;
    let message = `[parent] Data too large, data for [${label}] would be [${bytesText(used.total)}], which is larger than the limit of [${bytesText(limit)}]`;
    if (this.useRealMemory) message += `, real usage: [${bytesText(used.base)}], new bytes reserved: [${bytesText(newBytesReserved)}]`;
    message += `, usages [${[...this.children.values()].map((child) => `${child.name}=${bytesText(Math.trunc(child.used * child.overhead))}`).join(', ')}]`;
    // The parent's durability follows whichever kind of memory the children hold more of.
    throw circuitBreakingError(message, used.total, limit, used.transient >= used.permanent ? 'TRANSIENT' : 'PERMANENT');
  }

  /** Every breaker's figures, children then `parent` (its estimate is the memory it measures). */
  stats(): BreakerStats[] {
    const children = [...this.children.values()].map((child) => ({ name: child.name, limitBytes: child.limit, estimatedBytes: child.used, overhead: child.overhead, tripped: child.tripped }));
    return [...children, { name: 'parent', limitBytes: this.parentLimit, estimatedBytes: this.memoryUsed(0).total, overhead: 1.0, tripped: this.parentTripped }];
  }
}

/**
 * Bytes reserved on a breaker in steps and released together: what a request holds while it runs. Small
 * additions are gathered locally and checked once `step` bytes have accumulated, so accounting per bucket or per
 * chunk stays cheap.
 */
export class BreakerReservation {
  private reserved = 0;
  private pending = 0;

  constructor(
    private readonly breaker: ChildCircuitBreaker,
    private readonly label: string,
    private readonly step = 64 * 1024,
  ) {}

  /** Adds `bytes`; may throw circuit_breaking_exception (the bytes are then not kept). */
  add(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.step || this.pending === 0) return;
    const adding = this.pending;
    this.pending = 0;
    this.breaker.addEstimateBytesAndMaybeBreak(adding, this.label);
    this.reserved += adding;
  }

  /** Adds `bytes` with no check (what a request that may not be refused holds, still counted). */
  addWithoutBreaking(bytes: number): void {
    this.breaker.addWithoutBreaking(bytes);
    this.reserved += bytes;
  }

  get bytes(): number {
    return this.reserved + this.pending;
  }

  release(): void {
    if (this.reserved !== 0) this.breaker.addWithoutBreaking(-this.reserved);
    this.reserved = 0;
    this.pending = 0;
  }
}
