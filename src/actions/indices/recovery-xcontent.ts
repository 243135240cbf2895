/**
 * A shard's recovery state as ES's RecoveryState.toXContent prints it, field for field: with `human`, each
 * time and size is preceded by its readable form (XContentBuilder.humanReadableField / timeField), and
 * `detailed` adds the per-file `details` list. A PEER recovery's `source` is the primary's node; a store recovery
 * has no source node: `source` holds the recovery source's own fields (`bootstrap_new_history_uuid` for
 * EXISTING_STORE, nothing for EMPTY_STORE).
 */
import { byteSizeString, timeValueString } from '../../common/es-units.js';
import type { DiscoveryNode } from '../../cluster/index.js';
import { percentText, type ShardRecoveryState } from '../../indices/index.js';

export interface RecoveryRenderOptions {
  readonly human: boolean;
  readonly detailed: boolean;
}

type Fields = Record<string, unknown>;

function timeField(out: Fields, raw: string, readable: string, millis: number, options: RecoveryRenderOptions): void {
  if (options.human) out[readable] = timeValueString(millis, 1e6);
  out[raw] = millis;
}

function bytesField(out: Fields, raw: string, readable: string, bytes: number, options: RecoveryRenderOptions): void {
  if (options.human) out[readable] = byteSizeString(bytes);
  out[raw] = bytes;
}

/** XContentBuilder.timeField: the date formatted (strict_date_optional_time, UTC) with `human`, then the millis. */
function dateField(out: Fields, raw: string, readable: string, millis: number, options: RecoveryRenderOptions): void {
  if (options.human) out[readable] = new Date(millis).toISOString();
  out[raw] = millis;
}

export function recoveryStateXContent(state: ShardRecoveryState, target: DiscoveryNode, options: RecoveryRenderOptions): Fields {
  const out: Fields = { id: state.shard, type: state.type, stage: state.stage, primary: state.primary };
  dateField(out, 'start_time_in_millis', 'start_time', state.timer.startMillis, options);
  if (state.timer.stopMillis > 0) dateField(out, 'stop_time_in_millis', 'stop_time', state.timer.stopMillis, options);
  timeField(out, 'total_time_in_millis', 'total_time', state.timer.timeMillis, options);
  const source = state.sourceNode;
  if (state.type === 'PEER' && source !== undefined) {
    out['source'] = { id: source.id, host: source.host, transport_address: source.transportAddress, ip: source.ip, name: source.name };
  } else {
    out['source'] = state.type === 'EXISTING_STORE' ? { bootstrap_new_history_uuid: false } : {};
  }
  out['target'] = { id: target.id, host: target.host, transport_address: `${target.ip}:${target.transportPort}`, ip: target.ip, name: target.name };

  const size: Fields = {};
  bytesField(size, 'total_in_bytes', 'total', state.totalBytes, options);
  bytesField(size, 'reused_in_bytes', 'reused', state.reusedBytes, options);
  bytesField(size, 'recovered_in_bytes', 'recovered', state.recoveredBytes, options);
  bytesField(size, 'recovered_from_snapshot_in_bytes', 'recovered_from_snapshot', 0, options);
  size['percent'] = percentText(state.recoveredBytesPercent);
  const files: Fields = {
    total: state.totalFileCount,
    reused: state.reusedFileCount,
    recovered: state.recoveredFileCount,
    percent: percentText(state.recoveredFilesPercent),
  };
  if (options.detailed) {
    files['details'] = state.files.map((file) => {
      const detail: Fields = { name: file.name };
      bytesField(detail, 'length_in_bytes', 'length', file.length, options);
      detail['reused'] = file.reused;
      bytesField(detail, 'recovered_in_bytes', 'recovered', file.recovered, options);
      bytesField(detail, 'recovered_from_snapshot_in_bytes', 'recovered_from_snapshot', 0, options);
      return detail;
    });
  }
  const index: Fields = { size, files };
  timeField(index, 'total_time_in_millis', 'total_time', state.indexTimer.timeMillis, options);
  if (state.type === 'PEER') {
    // A peer recovery's copy waits on the node's rate limit (indices.recovery.max_bytes_per_sec).
    timeField(index, 'source_throttle_time_in_millis', 'source_throttle_time', state.sourceThrottleMillis, options);
    timeField(index, 'target_throttle_time_in_millis', 'target_throttle_time', state.targetThrottleMillis, options);
  } else {
    // A store recovery copies nothing, so nothing is throttled; ES prints its UNKNOWN (-1 ns) as 0 ms, "-1" when human.
    if (options.human) index['source_throttle_time'] = '-1';
    index['source_throttle_time_in_millis'] = 0;
    if (options.human) index['target_throttle_time'] = '-1';
    index['target_throttle_time_in_millis'] = 0;
  }
  out['index'] = index;

  const translog: Fields = {
    recovered: state.translogRecovered,
    total: state.translogTotal,
    percent: percentText(state.translogPercent),
    total_on_start: state.translogTotalOnStart,
  };
  timeField(translog, 'total_time_in_millis', 'total_time', state.translogTimer.timeMillis, options);
  out['translog'] = translog;

  const verifyIndex: Fields = {};
  timeField(verifyIndex, 'check_index_time_in_millis', 'check_index_time', 0, options);
  timeField(verifyIndex, 'total_time_in_millis', 'total_time', state.verifyIndexTimer.timeMillis, options);
  out['verify_index'] = verifyIndex;
  return out;
}
