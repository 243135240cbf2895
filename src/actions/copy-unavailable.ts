/**
 * Which failures of a request to one shard copy mean "this copy is not there", as opposed to "the request failed
 * on it". A broadcast skips such a copy without counting a failure; a single-shard read tries the next copy.
 */

/** ES's TransportActions.isShardNotAvailableException: the copy is not (or no longer) there. */
const SHARD_NOT_AVAILABLE = new Set([
  'shard_not_found_exception',
  'index_not_found_exception',
  'illegal_index_shard_state_exception',
  'no_shard_available_action_exception',
  'unavailable_shards_exception',
  'already_closed_exception',
]);

/** The copy's node could not be reached (ES's ConnectTransportException and NodeClosedException family). */
const NODE_UNREACHABLE = new Set(['node_not_connected_exception', 'node_disconnected_exception', 'connect_transport_exception', 'node_closed_exception']);

export function isShardNotAvailable(error: { readonly type: string }): boolean {
  return SHARD_NOT_AVAILABLE.has(error.type);
}

/**
 * The copy a request took for the shard's primary is not the primary (any more), or its node could not be reached:
 * nothing ran there, and the request is routed again on a newer cluster state (ES's TransportReplicationAction
 * retries on retryPrimaryException, ConnectTransportException and NodeClosedException). Writes and refreshes.
 */
export function isPrimaryMoved(error: { readonly type: string }): boolean {
  return NOT_THE_PRIMARY.has(error.type) || NODE_UNREACHABLE.has(error.type);
}

const NOT_THE_PRIMARY = new Set(['shard_not_found_exception', 'shard_not_in_primary_mode_exception', 'retry_on_primary_exception', 'already_closed_exception']);

/** Another copy may answer: the copy is not there or its node cannot be reached. */
export function isCopyUnavailable(error: { readonly type: string }): boolean {
  return SHARD_NOT_AVAILABLE.has(error.type) || NODE_UNREACHABLE.has(error.type);
}
