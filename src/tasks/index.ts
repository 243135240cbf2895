export { Task, type TaskOptions, type TaskType } from './task.js';
export { TaskId } from './task-id.js';
export { TaskManager, type BanPropagator } from './task-manager.js';
export { taskInfoOf, groupByParents, type TaskInfo, type TaskGroup } from './task-info.js';
export { taskMatches, type TaskFilter, type FilterableTask } from './task-filter.js';
export type { TaskResultStore, StoredTaskResult } from './task-result-store.js';
