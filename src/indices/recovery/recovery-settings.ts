/**
 * The node's recovery settings a recovery reads (ES's RecoverySettings), each read when it is used so a
 * `PUT _cluster/settings` applies without a restart: the rate limit on every chunk, the chunks in flight when a
 * recovery starts its file copy (ES's RecoverySourceHandler takes it when it is created).
 */
export interface RecoverySettings {
  /** `indices.recovery.max_bytes_per_sec` now (bytes; 0 or less: unthrottled). */
  maxBytesPerSec(): number;
  /** `indices.recovery.max_concurrent_file_chunks` now (1-8). */
  maxConcurrentFileChunks(): number;
}

export const DEFAULT_MAX_BYTES_PER_SEC = 40 * 1024 * 1024;
export const DEFAULT_MAX_CONCURRENT_FILE_CHUNKS = 2;
/**
 * ES's RecoverySettings.DEFAULT_CHUNK_SIZE. ES registers `indices.recovery.chunk_size` only in its test
 * framework (RecoverySettingsChunkSizePlugin), so a cluster refuses it as unknown; Gannet does the same.
 */
export const FILE_CHUNK_BYTES = 512 * 1024;
