export { Task, type TaskOptions, type TaskType } from './task.js';
export { TaskId } from './task-id.js';
export { TaskManager, type BanPropagator } from './task-manager.js';
