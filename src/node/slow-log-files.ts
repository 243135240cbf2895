/**
 * The slow log files under `path.logs`, as ES names them: `<cluster>_index_search_slowlog.json` (query and fetch
 * phases) and `<cluster>_index_indexing_slowlog.json`, each rotated as the server log is. Each line is one JSON
 * object with ES's ECS fields (`@timestamp`, `log.level`, `log.logger`, `elasticsearch.node.*`, then the
 * `elasticsearch.slowlog.*` fields). Slow logs are written whatever `logger.level` says: their thresholds are the
 * filter, as ES's slow log loggers are set to trace.
 */
import type { SlowLogKind, SlowLogLevel, SlowLogSink } from '../indices/index.js';
import { RotatingLogFile } from './rotating-log-file.js';

export interface SlowLogFilesOptions {
  readonly directory: string;
  readonly clusterName: string;
  readonly nodeName: string;
  readonly nodeId: () => string | undefined;
  readonly maxBytes: number;
  readonly maxFiles: number;
}

export class SlowLogFiles implements SlowLogSink {
  private readonly search: RotatingLogFile;
  private readonly indexing: RotatingLogFile;

  constructor(private readonly options: SlowLogFilesOptions) {
    const file = (suffix: string) =>
      new RotatingLogFile({ directory: options.directory, baseName: `${options.clusterName}_${suffix}`, maxBytes: options.maxBytes, maxFiles: options.maxFiles });
    this.search = file('index_search_slowlog');
    this.indexing = file('index_indexing_slowlog');
  }

  write(kind: SlowLogKind, level: SlowLogLevel, fields: Readonly<Record<string, unknown>>): void {
    const line = {
      '@timestamp': new Date().toISOString(),
      'log.level': level.toUpperCase(),
      'log.logger': kind,
      'event.dataset': kind === 'index.indexing.slowlog.index' ? 'elasticsearch.index_indexing_slowlog' : 'elasticsearch.index_search_slowlog',
      'elasticsearch.cluster.name': this.options.clusterName,
      'elasticsearch.node.name': this.options.nodeName,
      'elasticsearch.node.id': this.options.nodeId(),
      ...fields,
    };
    (kind === 'index.indexing.slowlog.index' ? this.indexing : this.search).write(`${JSON.stringify(line)}\n`);
  }

  close(): void {
    this.search.close();
    this.indexing.close();
  }
}
