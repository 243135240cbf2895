/**
 * A unit of work the cluster is doing, as ES's Task: an action name, an id on its node, a parent, a start
 * time and, when cancellable, a cancellation flag that the work checks at safe points.
 */
import { errors } from '../common/errors.js';
import { TaskId } from './task-id.js';

/** How the request reached the node, as ES names it: `transport` from a client or peer, `direct` in-process. */
export type TaskType = 'transport' | 'direct' | 'persistent';

export interface TaskOptions {
  type?: TaskType;
  action: string;
  /** What the request is about (shown with `detailed`); ES requests default to the empty string. */
  description?: string;
  parentTaskId?: TaskId;
  cancellable?: boolean;
  headers?: Record<string, string>;
  /** Live status object (e.g. a reindex's counters), read when the task is listed with `detailed`. */
  status?: () => unknown;
}

export class Task {
  readonly taskId: TaskId;
  readonly type: TaskType;
  readonly action: string;
  description: string | undefined;
  readonly parentTaskId: TaskId | undefined;
  readonly cancellable: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly startTimeMillis: number;
  /**
   * The monotonic clock at the start, in milliseconds (performance.now(), sub-microsecond resolution): a number,
   * not an hrtime BigInt, since a listing reads every task's running time and BigInt arithmetic was a measurable
   * part of 50 concurrent `_tasks` listings of ~200 tasks each (decision 0026).
   */
  private readonly startMonotonicMillis: number;
  private statusSupplier: (() => unknown) | undefined;
  /**
   * Made when something first asks for the signal: most tasks (every HTTP request, every node-level child of an
   * ops fan-out) finish without anyone waiting on it, and an AbortController with its signal was a few percent
   * of an ops request's CPU (decision 0022).
   */
  private abortController: AbortController | undefined;
  private cancellationReasonText: string | undefined;
  private completed = false;
  private readonly completionWaiters: Array<() => void> = [];
  /**
   * Kept here for the task listing's renderer (actions/tasks/task-listing-json.ts), which owns what it holds: the
   * parts of the task's listing JSON that never change, made at its first listing. A task lives as long as its
   * request, and under 50 concurrent `_tasks` requests every one of them lists it; a field is the cheapest place to
   * find them again (a WeakMap lookup per task and listing was ~3-5% of a node's time, decision 0026).
   */
  listingJson: unknown = undefined;

  constructor(nodeId: string, id: number, options: TaskOptions) {
    this.taskId = new TaskId(nodeId, id);
    this.type = options.type ?? 'transport';
    this.action = options.action;
    this.description = options.description;
    this.parentTaskId = options.parentTaskId;
    this.cancellable = options.cancellable ?? false;
    this.headers = options.headers ?? {};
    this.statusSupplier = options.status;
    this.startTimeMillis = Date.now();
    this.startMonotonicMillis = performance.now();
  }

  get id(): number {
    return this.taskId.id;
  }

  get runningTimeNanos(): number {
    return this.runningTimeNanosAt(performance.now());
  }

  /**
   * The running time in whole nanoseconds at `nowMillis` (performance.now()): a listing reads the clock once for
   * all its tasks.
   */
  runningTimeNanosAt(nowMillis: number): number {
    return Math.max(0, Math.round((nowMillis - this.startMonotonicMillis) * 1e6));
  }

  get status(): unknown {
    return this.statusSupplier?.();
  }

  /**
   * Attaches the live status to a task registered by someone else (the HTTP layer registers a reindex's task
   * before its handler builds the worker whose counters the status reads).
   */
  setStatusSupplier(supplier: () => unknown): void {
    this.statusSupplier = supplier;
  }

  get isCancelled(): boolean {
    return this.cancellationReasonText !== undefined;
  }

  get cancellationReason(): string | undefined {
    return this.cancellationReasonText;
  }

  /** Aborted when the task is cancelled; pass it to timers and I/O so waiting work wakes up. */
  get signal(): AbortSignal {
    if (this.abortController === undefined) {
      this.abortController = new AbortController();
      // Asked for after the cancellation: it must say so already.
      if (this.cancellationReasonText !== undefined) this.abortController.abort(errors.taskCancelled(this.cancellationReasonText));
    }
    return this.abortController.signal;
  }

  get isCompleted(): boolean {
    return this.completed;
  }

  /** Throws ES's task_cancelled_exception when the task was cancelled. Call it at every safe point. */
  ensureNotCancelled(): void {
    if (this.cancellationReasonText !== undefined) throw errors.taskCancelled(this.cancellationReasonText);
  }

  /** Only the TaskManager calls this; it also handles children and bans. Returns false if already cancelled. */
  markCancelled(reason: string): boolean {
    if (!this.cancellable) throw errors.taskNotCancellable(this.taskId.toString());
    if (this.cancellationReasonText !== undefined) return false;
    this.cancellationReasonText = reason;
    this.abortController?.abort(errors.taskCancelled(reason));
    return true;
  }

  markCompleted(): void {
    if (this.completed) return;
    this.completed = true;
    for (const waiter of this.completionWaiters.splice(0)) waiter();
  }

  whenCompleted(): Promise<void> {
    if (this.completed) return Promise.resolve();
    return new Promise((resolve) => this.completionWaiters.push(resolve));
  }
}
