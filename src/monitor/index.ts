export { NodeMonitor, type NodeFigures } from './node-monitor.js';
export type { OsStats } from './os-probe.js';
export type { ProcessStats } from './process-probe.js';
export type { FsStats } from './fs-probe.js';
