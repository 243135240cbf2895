/**
 * Watches an index's write counter (`_stats/indexing`: primaries `indexing.index_total`) by polling it
 * back to back, and remembers when each value was first seen. "When was the last write?" is then the
 * time the final value first showed: an upper bound on the real moment, late by at most one poll.
 */
import { call } from '../peers/http-server.js';

export interface WriteWatch {
  /** Stops polling; resolves with the final value and the time (performance.now()) it was first seen. */
  stop(): Promise<{ finalTotal: number; firstSeenAt: number; polls: number; maxPollGapMs: number }>;
}

export function watchIndexTotal(port: number, index: string): WriteWatch {
  let running = true;
  let value = -1;
  let firstSeenAt = performance.now();
  let polls = 0;
  let maxPollGapMs = 0;
  const loop = (async () => {
    let previousPoll = performance.now();
    while (running) {
      const reply = await call(port, 'GET', `/${index}/_stats/indexing?filter_path=_all.primaries.indexing.index_total`);
      const now = performance.now();
      polls++;
      maxPollGapMs = Math.max(maxPollGapMs, now - previousPoll);
      previousPoll = now;
      const total = Number(reply.body?._all?.primaries?.indexing?.index_total ?? Number.NaN);
      if (Number.isFinite(total) && total !== value) {
        value = total;
        firstSeenAt = now;
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { finalTotal: value, firstSeenAt, polls, maxPollGapMs };
    },
  };
}
