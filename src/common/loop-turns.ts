/**
 * One budget of background work per turn of the event loop (decision 0015). Every piece of work that slices
 * itself (a search phase's collection, query building, a bulk's runs, the engine's write admission) ends a slice
 * with `await nextTurn()` instead of its own `setImmediate`. The difference is who decides what runs next:
 * with a `setImmediate` each, every slicer got a slice in every turn, so four searches held the loop for four
 * slices between two polls for I/O, and an operator's command that needs two or three turns (accept, read,
 * answer) waited behind twelve slices. Here the slicers wait in one FIFO, and a turn resumes them one after the
 * other only until the turn's budget is spent; the rest wait for the next turn, after the poll phase has read
 * (and answered) whatever arrived meanwhile. So the loop polls for I/O at least every budget plus one slice,
 * whatever the number of searches and bulks in flight, and they share the remaining time round robin.
 *
 * The budget counts from the moment the turn's pump resumed the first slicer; a slicer that ends its slice
 * early (it finished, or awaits I/O) hands the rest of the turn to the next in line through `nextTurn()`, and
 * the pump scheduled for the next turn resumes whoever is still waiting, so the queue always moves.
 */
import { performance } from 'node:perf_hooks';

/** Milliseconds of sliced work one turn of the loop runs before it polls for I/O again. */
export const TURN_BUDGET_MILLIS = 5;

const waiting: Array<() => void> = [];
let head = 0;
/** When the current turn's pump started; -Infinity until a pump ran, so a slice begun elsewhere always waits. */
let turnStarted = -Infinity;
let pumpScheduled = false;

/**
 * Ends the caller's slice: resolves when its next slice may run, at once (in a microtask) when this turn still
 * has budget and nobody waits before it, else in a later turn, after I/O was served.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resume) => {
    waiting.push(resume);
    if (performance.now() - turnStarted < TURN_BUDGET_MILLIS) resumeNext();
    else schedulePump();
  });
}

/**
 * Waits for a turn of the budget whatever this turn has left: what heavy work calls before it starts (a shard's
 * search phase, a bulk's shard group). Started from a request's I/O callback, its first slice would run in the
 * poll phase ahead of the other requests read in the same poll, an operator's command among them; queued here it
 * runs after them, in its order among the slicers already waiting (decision 0019).
 */
export function queueTurn(): Promise<void> {
  return new Promise<void>((resume) => {
    waiting.push(resume);
    schedulePump();
  });
}

/** Slicers waiting for a turn (diagnostics and tests). */
export function waitingForTurn(): number {
  return waiting.length - head;
}

function resumeNext(): void {
  if (head >= waiting.length) return;
  const resume = waiting[head]!;
  waiting[head++] = undefined as unknown as () => void;
  if (head > 1024 && head * 2 > waiting.length) {
    waiting.splice(0, head);
    head = 0;
  }
  resume();
  // Whoever is still waiting gets the next turn, even if the one just resumed never calls nextTurn() again.
  if (head < waiting.length) schedulePump();
}

function schedulePump(): void {
  if (pumpScheduled) return;
  pumpScheduled = true;
  setImmediate(pump);
}

function pump(): void {
  pumpScheduled = false;
  turnStarted = performance.now();
  resumeNext();
}
