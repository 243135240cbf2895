/**
 * The node's registry of running tasks, as ES's TaskManager: ids are allocated per node from 1 upwards,
 * tasks register when work starts and unregister when it ends.
 *
 * Cancellation follows ES's TaskCancellationService: cancelling a task marks it cancelled, bans its id as a
 * parent (a new cancellable child is refused with `task cancelled before starting [<reason>]`, and a child
 * that a cancelled local parent tries to start with `parent task was cancelled [<reason>]`), and cancels its
 * cancellable children, which in turn ban and cancel theirs. Non-cancellable children are left to finish,
 * and ES does not reach through them. The ban is lifted once the task and all its descendants completed.
 * A cancel that waits returns only when the task and every descendant have completed.
 *
 * Children on other nodes are reached through the `banPropagator` hook, which the transport layer sets
 * when the node is part of a cluster. Finished tasks' results are read through `resultStore`, the seam for
 * the `.tasks` index; it stays undefined until that store exists.
 */
import { errors } from '../common/errors.js';
import { Task, type TaskOptions } from './task.js';
import type { TaskId } from './task-id.js';
import type { TaskResultStore } from './task-result-store.js';

export type BanPropagator = (parent: TaskId, reason: string, ban: boolean) => Promise<void>;

export class TaskManager {
  private nextId = 1;
  /** Insertion order is id order, which is the order ES's small HashMap of tasks prints them in. */
  private readonly tasks = new Map<number, Task>();
  /** parent task id string -> reason; a banned parent may not get new cancellable children. */
  private readonly bans = new Map<string, string>();
  banPropagator: BanPropagator | undefined;
  resultStore: TaskResultStore | undefined;
  /** Where cancellations are reported (the node sets its logger); none in unit tests. */
  cancellationLog: ((entry: { taskId: string; action: string; reason: string; descendants: number }) => void) | undefined;

  constructor(readonly nodeId: string) {}

  /**
   * Makes the next id larger than `id`. A node keeps its id across restarts, so ids restart too; the node calls
   * this at startup with the highest id it ever stored a result for, so a new task never takes a stored task's id.
   */
  skipIdsThrough(id: number): void {
    if (Number.isSafeInteger(id) && id >= this.nextId) this.nextId = id + 1;
  }

  register(options: TaskOptions): Task {
    const parentId = options.parentTaskId;
    if (parentId) {
      // ES refuses before sending a child request when the local parent is already cancelled.
      const localParent = parentId.nodeId === this.nodeId ? this.tasks.get(parentId.id) : undefined;
      if (localParent?.isCancelled) throw errors.parentTaskCancelled(localParent.cancellationReason ?? '');
    }
    const task = new Task(this.nodeId, this.nextId++, options);
    if (parentId && task.cancellable) {
      const banReason = this.bans.get(parentId.toString());
      if (banReason !== undefined) {
        task.markCompleted();
        throw errors.taskCancelledBeforeStarting(banReason);
      }
    }
    this.tasks.set(task.id, task);
    return task;
  }

  unregister(task: Task): void {
    if (this.tasks.get(task.id) === task) this.tasks.delete(task.id);
    task.markCompleted();
  }

  /** Runs `work` as a registered task and unregisters it however the work ends. */
  async run<T>(options: TaskOptions, work: (task: Task) => Promise<T>): Promise<T> {
    const task = this.register(options);
    try {
      return await work(task);
    } finally {
      this.unregister(task);
    }
  }

  get(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  /** Running tasks in id order. */
  list(): Task[] {
    return [...this.tasks.values()];
  }

  childrenOf(parent: TaskId): Task[] {
    return this.list().filter((task) => parent.equals(task.parentTaskId));
  }

  /** Running descendants on this node, depth first. */
  descendantsOf(parent: TaskId): Task[] {
    const out: Task[] = [];
    const stack = this.childrenOf(parent);
    while (stack.length > 0) {
      const task = stack.shift()!;
      out.push(task);
      stack.unshift(...this.childrenOf(task.taskId));
    }
    return out;
  }

  /** True when `ancestor` is `task` itself or one of its local parents. */
  isSelfOrAncestor(ancestor: TaskId, task: Task): boolean {
    let current: Task | undefined = task;
    const seen = new Set<number>();
    while (current && !seen.has(current.id)) {
      if (ancestor.equals(current.taskId)) return true;
      seen.add(current.id);
      const parentId: TaskId | undefined = current.parentTaskId;
      current = parentId && parentId.nodeId === this.nodeId ? this.tasks.get(parentId.id) : undefined;
    }
    return false;
  }

  /**
   * Cancels a task and its cancellable descendants (on this node, and through bans on other nodes).
   * Cancelling an already cancelled task is harmless. Resolves once the bans are placed or, with
   * `waitForCompletion`, once the task and all its local descendants have completed.
   */
  async cancel(task: Task, reason: string, waitForCompletion: boolean): Promise<void> {
    if (!task.cancellable) throw errors.taskNotCancellable(task.taskId.toString());
    const alreadyCancelled = task.isCancelled;
    const cancelled = this.cancelLocally(task, reason, []);
    if (!alreadyCancelled) this.cancellationLog?.({ taskId: task.taskId.toString(), action: task.action, reason, descendants: cancelled.length - 1 });
    const propagations = cancelled.map((t) => (this.banPropagator ? this.banPropagator(t.taskId, reason, true) : Promise.resolve()));
    for (const t of cancelled) void this.waitForTaskAndDescendants(t).then(() => this.liftBan(t.taskId));
    await Promise.all(propagations);
    if (waitForCompletion) await this.waitForTaskAndDescendants(task);
  }

  /** Applies a ban that another node sent for one of its tasks: refuse new children, cancel running ones. */
  applyBan(parent: TaskId, reason: string, ban: boolean): void {
    if (!ban) {
      this.bans.delete(parent.toString());
      return;
    }
    this.bans.set(parent.toString(), reason);
    for (const child of this.childrenOf(parent)) {
      if (child.cancellable) void this.cancel(child, reason, false).catch(() => undefined);
    }
  }

  /** Whether new cancellable children of `parent` are refused (for tests and diagnostics). */
  isBanned(parent: TaskId): boolean {
    return this.bans.has(parent.toString());
  }

  async waitForTaskAndDescendants(task: Task): Promise<void> {
    await task.whenCompleted();
    // Children may still be finishing after the parent returns; wait for them too.
    for (;;) {
      const running = this.descendantsOf(task.taskId).filter((t) => !t.isCompleted);
      if (running.length === 0) return;
      await Promise.all(running.map((t) => t.whenCompleted()));
    }
  }

  /**
   * Marks the task cancelled, bans its id and does the same for its cancellable children, recursively.
   * Returns every task this pass went through, so each one's ban can be propagated and later lifted.
   */
  private cancelLocally(task: Task, reason: string, out: Task[]): Task[] {
    task.markCancelled(reason);
    out.push(task);
    // Ban before touching children, so none can slip in between (ES starts the ban first too).
    if (!task.isCompleted) this.bans.set(task.taskId.toString(), reason);
    for (const child of this.childrenOf(task.taskId)) {
      if (child.cancellable && !child.isCancelled) this.cancelLocally(child, reason, out);
    }
    return out;
  }

  private liftBan(parent: TaskId): void {
    this.bans.delete(parent.toString());
    if (this.banPropagator) void this.banPropagator(parent, '', false).catch(() => undefined);
  }
}
