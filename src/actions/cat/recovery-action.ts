/**
 * `GET /_cat/recovery[/{index}]` (RestCatRecoveryAction): one row per shard recovery from the same states
 * `_recovery` prints. A store recovery has no source node, repository or snapshot (`n/a`); `files` and
 * `bytes` count what had to be copied (nothing: every file is reused), the `_total` columns everything.
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { percentText } from '../../indices/index.js';
import { collectRecoveries, RECOVERY_PARAMS } from '../indices/recovery-action.js';
import type { CatEndpoint } from './cat-endpoint.js';

export const recoveryColumns = defineColumns([
  { name: 'index', aliases: ['i', 'idx'], description: 'index name' },
  { name: 'shard', aliases: ['s', 'sh'], description: 'shard name' },
  { name: 'start_time', aliases: ['start'], description: 'recovery start time', shownByDefault: false },
  { name: 'start_time_millis', aliases: ['start_millis'], description: 'recovery start time in epoch milliseconds', shownByDefault: false },
  { name: 'stop_time', aliases: ['stop'], description: 'recovery stop time', shownByDefault: false },
  { name: 'stop_time_millis', aliases: ['stop_millis'], description: 'recovery stop time in epoch milliseconds', shownByDefault: false },
  { name: 'time', aliases: ['t', 'ti'], description: 'recovery time' },
  { name: 'type', aliases: ['ty'], description: 'recovery type' },
  { name: 'stage', aliases: ['st'], description: 'recovery stage' },
  { name: 'source_host', aliases: ['shost'], description: 'source host' },
  { name: 'source_node', aliases: ['snode'], description: 'source node name' },
  { name: 'target_host', aliases: ['thost'], description: 'target host' },
  { name: 'target_node', aliases: ['tnode'], description: 'target node name' },
  { name: 'repository', aliases: ['rep'], description: 'repository' },
  { name: 'snapshot', aliases: ['snap'], description: 'snapshot' },
  { name: 'files', aliases: ['f'], description: 'number of files to recover' },
  { name: 'files_recovered', aliases: ['fr'], description: 'files recovered' },
  { name: 'files_percent', aliases: ['fp'], description: 'percent of files recovered' },
  { name: 'files_total', aliases: ['tf'], description: 'total number of files' },
  { name: 'bytes', aliases: ['b'], description: 'number of bytes to recover' },
  { name: 'bytes_recovered', aliases: ['br'], description: 'bytes recovered' },
  { name: 'bytes_percent', aliases: ['bp'], description: 'percent of bytes recovered' },
  { name: 'bytes_total', aliases: ['tb'], description: 'total number of bytes' },
  { name: 'translog_ops', aliases: ['to'], description: 'number of translog ops to recover' },
  { name: 'translog_ops_recovered', aliases: ['tor'], description: 'translog ops recovered' },
  { name: 'translog_ops_percent', aliases: ['top'], description: 'percent of translog ops recovered' },
]);

type RecoveryColumn = (typeof recoveryColumns)[number]['name'];

export const catRecoveryEndpoint: CatEndpoint<RecoveryColumn> = {
  documentation: ['/_cat/recovery', '/_cat/recovery/{index}'],
  paths: ['/_cat/recovery', '/_cat/recovery/{index}'],
  action: 'indices:monitor/recovery',
  params: RECOVERY_PARAMS,
  columns: recoveryColumns,
  async rows(request, context) {
    request.paramBool('detailed', false);
    const rows: CatRow<RecoveryColumn>[] = [];
    for (const [index, states] of await collectRecoveries(request, context)) {
      for (const { state, target } of states) {
        rows.push({
          index: cell.string(index),
          shard: cell.long(state.shard),
          start_time: cell.string(new Date(state.timer.startMillis).toISOString()),
          start_time_millis: cell.long(state.timer.startMillis),
          stop_time: cell.string(new Date(state.timer.stopMillis).toISOString()),
          stop_time_millis: cell.long(state.timer.stopMillis),
          time: cell.millis(state.timer.timeMillis),
          type: cell.string(state.type.toLowerCase()),
          stage: cell.string(state.stage.toLowerCase()),
          // A peer recovery names the primary's node; a store recovery has none.
          source_host: cell.string(state.sourceNode?.host ?? 'n/a'),
          source_node: cell.string(state.sourceNode?.name ?? 'n/a'),
          target_host: cell.string(target.host),
          target_node: cell.string(target.name),
          repository: cell.string('n/a'),
          snapshot: cell.string('n/a'),
          files: cell.long(state.filesToRecover),
          files_recovered: cell.long(state.recoveredFileCount),
          files_percent: cell.string(percentText(state.recoveredFilesPercent)),
          files_total: cell.long(state.totalFileCount),
          bytes: cell.bytes(state.bytesToRecover),
          bytes_recovered: cell.bytes(state.recoveredBytes),
          bytes_percent: cell.string(percentText(state.recoveredBytesPercent)),
          bytes_total: cell.bytes(state.totalBytes),
          translog_ops: cell.long(state.translogTotal),
          translog_ops_recovered: cell.long(state.translogRecovered),
          translog_ops_percent: cell.string(percentText(state.translogPercent)),
        });
      }
    }
    return rows;
  },
};
