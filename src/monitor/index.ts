export { NodeMonitor, type NodeFigures } from './node-monitor.js';
export type { OsStats } from './os-probe.js';
export type { ProcessStats } from './process-probe.js';
export type { FsStats } from './fs-probe.js';
export { directorySizeBytes } from './directory-size.js';
export { zeroIndicesStats, zeroScriptStats, type NodeIndicesStats, type ScriptStats } from './indices-stats.js';
