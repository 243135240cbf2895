/**
 * The node's registry of running tasks, as ES's TaskManager: ids are allocated per node from 1 upwards,
 * tasks register when work starts and unregister when it ends. Cancelling a task marks it cancelled, bans
 * its id as a parent (so no new child may start) and cancels its running children; a cancel that waits
 * returns only when the task and every descendant have completed.
 *
 * Children on other nodes are reached through the `banPropagator` hook, which the transport layer sets
 * when the node is part of a cluster.
 */
import { EsError } from '../common/errors.js';
import { Task, type TaskOptions } from './task.js';
import { TaskId } from './task-id.js';

export type BanPropagator = (parent: TaskId, reason: string, ban: boolean) => Promise<void>;

export class TaskManager {
  private nextId = 1;
  private readonly tasks = new Map<number, Task>();
  /** parent task id string -> reason; a banned parent may not get new children. */
  private readonly bans = new Map<string, string>();
  banPropagator: BanPropagator | undefined;

  constructor(readonly nodeId: string) {}

  register(options: TaskOptions): Task {
    if (options.parentTaskId) {
      const banReason = this.bans.get(options.parentTaskId.toString());
      if (banReason !== undefined) {
        throw new EsError(
          'task_cancelled_exception',
          `task cancelled before starting [${banReason}]`,
        );
      }
      const localParent = options.parentTaskId.nodeId === this.nodeId ? this.tasks.get(options.parentTaskId.id) : undefined;
      if (localParent?.isCancelled) {
        throw new EsError('task_cancelled_exception', `parent task was cancelled [${localParent.cancellationReason}]`);
      }
    }
    const task = new Task(this.nodeId, this.nextId++, options);
    this.tasks.set(task.id, task);
    return task;
  }

  unregister(task: Task): void {
    if (this.tasks.get(task.id) === task) this.tasks.delete(task.id);
    task.markCompleted();
    // A parent that ends lifts its ban, as ES removes bans once the parent completes.
    const key = task.taskId.toString();
    if (this.bans.delete(key) && this.banPropagator) {
      void this.banPropagator(task.taskId, '', false).catch(() => undefined);
    }
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

  list(): Task[] {
    return [...this.tasks.values()];
  }

  childrenOf(parent: TaskId): Task[] {
    return this.list().filter((task) => parent.equals(task.parentTaskId));
  }

  /** Descendants on this node, depth first. */
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

  /**
   * Cancels a task and its descendants (on this node, and through bans on other nodes). With
   * `waitForCompletion`, resolves only when the task and all its local descendants have completed.
   */
  async cancel(task: Task, reason: string, waitForCompletion: boolean): Promise<void> {
    task.markCancelled(reason);
    this.bans.set(task.taskId.toString(), reason);
    this.cancelChildrenLocally(task.taskId, reason);
    const propagation = this.banPropagator ? this.banPropagator(task.taskId, reason, true) : Promise.resolve();
    if (task.isCompleted) this.bans.delete(task.taskId.toString());
    if (!waitForCompletion) {
      void propagation.catch(() => undefined);
      return;
    }
    await propagation;
    await this.waitForTaskAndDescendants(task);
  }

  /** Applies a ban that another node sent for one of its tasks. */
  applyBan(parent: TaskId, reason: string, ban: boolean): void {
    if (ban) {
      this.bans.set(parent.toString(), reason);
      this.cancelChildrenLocally(parent, reason);
    } else {
      this.bans.delete(parent.toString());
    }
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

  private cancelChildrenLocally(parent: TaskId, reason: string): void {
    for (const child of this.childrenOf(parent)) {
      if (child.cancellable && !child.isCancelled) {
        child.markCancelled(reason);
        this.bans.set(child.taskId.toString(), reason);
      }
      this.cancelChildrenLocally(child.taskId, reason);
    }
  }
}
