import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeFrame, FrameDecoder, FrameKind, type RequestFrame } from '../../../src/transport/frame.js';
import { ShardRecoveryState } from '../../../src/indices/recovery-state.js';
import { recoveryFromWire } from '../../../src/actions/indices/recovery-broadcast.js';

function acrossTheWire<T>(body: T): T {
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Request, id: 1, action: 'test', body }));
  return (frame as RequestFrame).body as T;
}

async function runningPeerRecovery(): Promise<ShardRecoveryState> {
  const state = new ShardRecoveryState('logs', 0, false, 'PEER');
  state.startPeerIndexStage([{ name: '_0.seg', length: 100 }], false);
  await sleep(30);
  return state;
}

test('a running recovery reported by another node keeps the time it had run there (the timers are fixed before they cross)', async () => {
  const state = await runningPeerRecovery();
  const rebuilt = recoveryFromWire(acrossTheWire(state.snapshot()) as unknown as Record<string, unknown>);
  assert.ok(rebuilt.timer.timeMillis >= 25, `total time ${rebuilt.timer.timeMillis}`);
  assert.ok(rebuilt.indexTimer.timeMillis >= 25, `index time ${rebuilt.indexTimer.timeMillis}`);
  assert.equal(rebuilt.timer.stopMillis, 0, 'still running: no stop time');
  assert.equal(rebuilt.translogTimer.timeMillis, 0, 'a timer never started reads 0');
  assert.equal(rebuilt.stage, 'INDEX');
  assert.deepEqual(rebuilt.files, state.files);
});

test('a running timer rebuilt from the wire without a snapshot reads 0 instead of mixing BigInt and numbers', async () => {
  const state = await runningPeerRecovery();
  const rebuilt = recoveryFromWire(acrossTheWire(state) as unknown as Record<string, unknown>);
  assert.equal(typeof rebuilt.timer.timeMillis, 'number');
});

test('the snapshot of a stopped timer keeps its elapsed time and stop time', async () => {
  const state = await runningPeerRecovery();
  state.startPeerTranslogStage(0);
  state.startFinalizeStage();
  state.finishPeer();
  const rebuilt = recoveryFromWire(acrossTheWire(state.snapshot()) as unknown as Record<string, unknown>);
  assert.equal(rebuilt.timer.timeMillis, state.timer.timeMillis);
  assert.equal(rebuilt.timer.stopMillis, state.timer.stopMillis);
  assert.equal(rebuilt.stage, 'DONE');
});
