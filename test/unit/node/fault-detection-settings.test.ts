import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Settings } from '../../../src/common/settings.js';
import { faultDetectionSettings } from '../../../src/node/node-settings.js';

test('failure detection settings have their defaults and refuse a lease under a second as ES words it', () => {
  assert.deepEqual(faultDetectionSettings(new Settings({})), { leaseTtlSeconds: 10, joinTimeoutMillis: 30_000, probeTimeoutMillis: 1000, reconnectIntervalMillis: 1000 });
  assert.equal(faultDetectionSettings(new Settings({ 'cluster.etcd.lease_ttl': '3s' })).leaseTtlSeconds, 3);
  assert.throws(() => faultDetectionSettings(new Settings({ 'cluster.etcd.lease_ttl': '500ms' })), { message: 'failed to parse value [500ms] for setting [cluster.etcd.lease_ttl], must be >= [1s]' });
  assert.throws(() => faultDetectionSettings(new Settings({ 'cluster.etcd.lease_ttl': 'soon' })), /cluster.etcd.lease_ttl/);
});
