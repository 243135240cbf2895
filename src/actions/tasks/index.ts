/** The task management API family, and the listing `_cat/tasks` shares with it. */
export { taskRoutes } from './tasks-routes.js';
export { listTasks, parseListTasksRequest, LIST_TASKS_ACTION, LIST_TASKS_PARAMS, type ListTasksRequest } from './list-tasks.js';
export { cancelTasks, CANCEL_TASKS_ACTION, DEFAULT_CANCEL_REASON, type CancelTasksRequest } from './cancel-tasks.js';
export { getTask, GET_TASK_ACTION } from './get-task.js';
export { taskInfoJson, errorJson, type TaskOperationFailure } from './task-json.js';
export { tasksResponseJson, parseGroupBy, type TasksResponse, type GroupBy } from './tasks-response.js';
export { runDetached, storeResult } from './detached-task.js';
export { TaskResultsIndex, readStoredTaskIdFloor, TASK_RESULTS_INDEX, taskResultsIndexRequest, taskResultsMapping } from './task-results-index.js';
export { encodeTaskResult, decodeTaskResult, taskResultDocument } from './task-result-document.js';
