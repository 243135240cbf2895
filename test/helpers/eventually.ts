/**
 * Waiting for a condition instead of sleeping for the time it usually takes: a fixed sleep is a guess about how fast
 * this host runs, and a CI host with two cores at load 20 can stall a process for hundreds of milliseconds, so a
 * guess that holds on a quiet machine fails there. The deadline only bounds a wait for something that never
 * comes (the failure the test is for); it is not the expected time.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` every `intervalMillis` until it holds; throws naming `what` when `timeoutMillis` passed first. */
export async function eventually(condition: () => boolean, what: string, timeoutMillis = 10_000, intervalMillis = 5): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMillis} ms waiting until ${what}`);
    await sleep(intervalMillis);
  }
}
