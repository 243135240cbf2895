/**
 * `gannet reindex <src> <dst>`: starts `POST /_reindex?wait_for_completion=false`, prints the task id,
 * then follows the task as `gannet tasks --follow` does. The request is ES's: `source.index`,
 * `source.query`, `source.size` (the batch size), `dest.index`, `dest.op_type`, `max_docs`, `conflicts`
 * in the body; `slices`, `requests_per_second` and `refresh` as query parameters.
 */
import { expectJson, isObject, stringField, type JsonObject } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { ResponseError, type QueryParams } from './gannet-client.js';
import { FOLLOW_OPTIONS, FOLLOW_OPTIONS_HELP, followTask, hasFollowOptions, parseFollowSettings } from './follow-task.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { UsageError, booleanOption, nonEmptyOption, type OptionValues } from './operator-options.js';

export const reindexCommand: OperatorCommand = {
  name: 'reindex',
  summary: 'copy documents from one index into another as a task, and follow it',
  help: `usage: gannet reindex <source> <dest> [--query JSON] [--size N] [--max-docs N] [--slices N|auto]
                      [--requests-per-second N] [--conflicts proceed|abort] [--op-type create|index]
                      [--refresh] [--no-follow] [--interval 1s] [--cancel-on-interrupt] [common options]

Starts POST /_reindex?wait_for_completion=false from <source> (an index, alias or comma-separated
list) into <dest>, prints the task id, then follows the task until it ends, as
"gannet tasks --follow" does: a progress line, then the final counts. The reindex runs on the node;
stopping the CLI does not stop it ("gannet cancel <task_id>" does).

options:
  --query JSON                 copy only the documents matching this query clause, e.g.
                               '{"term":{"status":"active"}}' ('{"query":{...}}' is accepted too)
  --size N                     documents per batch (source.size; the node's default is 1000)
  --max-docs N                 stop after this many documents
  --slices N|auto              split the work into N parallel slices (auto: one per source shard)
  --requests-per-second N      throttle to N documents per second (-1: unthrottled, the default);
                               change it later with POST /_reindex/<task_id>/_rethrottle
  --conflicts proceed|abort    on a version conflict, count it and go on, or stop (default abort)
  --op-type create|index       create: only add documents missing from <dest> (existing ones are
                               version conflicts); index (default): overwrite
  --refresh                    refresh <dest> when the reindex ends, so searches see the copies
  --no-follow                  print the task id and return at once
${FOLLOW_OPTIONS_HELP}

exit codes:
  0 completed without failures (with --no-follow: started)
  2 the reindex failed, reported failures (e.g. version conflicts with --conflicts abort) or
    timed out   3 node unreachable   4 the node refused the request or another error
  5 the reindex was cancelled   64 bad command line   130 Ctrl-C stopped following`,
  options: {
    query: { type: 'string' },
    size: { type: 'string' },
    'max-docs': { type: 'string' },
    slices: { type: 'string' },
    'requests-per-second': { type: 'string' },
    conflicts: { type: 'string' },
    'op-type': { type: 'string' },
    refresh: { type: 'boolean' },
    'no-follow': { type: 'boolean' },
    ...FOLLOW_OPTIONS,
  },
  maxPositionals: 2,
  async run(context: CommandContext): Promise<number> {
    const request = buildReindexRequest(context.positionals, context.values);
    const noFollow = booleanOption(context.values, 'no-follow');
    if (noFollow && hasFollowOptions(context.values)) throw new UsageError('--interval and --cancel-on-interrupt only apply when following (drop --no-follow)');
    const follow = noFollow ? undefined : parseFollowSettings(context.values);
    const response = await context.client.request('POST', '/_reindex', request.query, { body: request.body });
    const started = expectJson(response);
    const taskId = stringField(started, 'task');
    if (taskId === undefined) throw new ResponseError(`${response.request} answered without a task id: ${response.text.slice(0, 200)}`, response);
    if (follow === undefined) {
      if (context.json) writeRawJson(context.io, response.text);
      else context.io.stdout.write(`started reindex task ${taskId}; follow it with "gannet tasks --follow ${taskId}"\n`);
      return ExitCode.ok;
    }
    if (!context.json) context.io.stdout.write(`started reindex task ${taskId}\n`);
    return followTask(context, taskId, follow, 'gannet reindex');
  },
};

export interface ReindexRequest {
  query: QueryParams;
  body: JsonObject;
}

/** The `_reindex` request for this command line; every mistake is a UsageError naming the flag. */
export function buildReindexRequest(positionals: readonly string[], values: OptionValues): ReindexRequest {
  if (positionals.length < 2) throw new UsageError(positionals.length === 0 ? 'name the source and destination indices: gannet reindex <source> <dest>' : 'name the destination index too: gannet reindex <source> <dest>');
  const [sourceRaw, dest] = positionals as [string, string];
  const sources = sourceRaw.split(',').map((name) => name.trim());
  if (sources.some((name) => name === '')) throw new UsageError(`the source [${sourceRaw}] has an empty index name`);
  if (dest.trim() === '' || dest.includes(',')) throw new UsageError(`the destination must be one index name, not [${dest}]`);

  const source: JsonObject = { index: sources.length === 1 ? sources[0]! : sources };
  const query = nonEmptyOption(values, 'query');
  if (query !== undefined) source['query'] = parseQuery(query);
  const size = positiveIntegerOption(values, 'size');
  if (size !== undefined) source['size'] = size;

  const destination: JsonObject = { index: dest };
  const opType = choiceOption(values, 'op-type', ['create', 'index']);
  if (opType !== undefined) destination['op_type'] = opType;

  const body: JsonObject = { source, dest: destination };
  const maxDocs = positiveIntegerOption(values, 'max-docs');
  if (maxDocs !== undefined) body['max_docs'] = maxDocs;
  const conflicts = choiceOption(values, 'conflicts', ['proceed', 'abort']);
  if (conflicts !== undefined) body['conflicts'] = conflicts;

  return {
    query: {
      wait_for_completion: 'false',
      slices: slicesOption(values),
      requests_per_second: requestsPerSecondOption(values),
      refresh: booleanOption(values, 'refresh'),
    },
    body,
  };
}

function parseQuery(text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--query must be JSON: ${(err as Error).message}`);
  }
  if (!isObject(parsed)) throw new UsageError(`--query must be a JSON object such as '{"match_all":{}}', not [${text}]`);
  const keys = Object.keys(parsed);
  // `{"query": {...}}` is what people paste from a search body; "query" is no query type, so unwrapping is unambiguous.
  if (keys.length === 1 && keys[0] === 'query' && isObject(parsed['query'])) return parsed['query'];
  if (keys.length !== 1) throw new UsageError(`--query must hold exactly one query clause, such as '{"term":{"status":"active"}}'; got [${keys.join(', ')}]`);
  return parsed;
}

function positiveIntegerOption(values: OptionValues, name: string): number | undefined {
  const raw = nonEmptyOption(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--${name} must be a whole number of at least 1, not [${raw}]`);
  return Number(raw);
}

function choiceOption(values: OptionValues, name: string, choices: readonly string[]): string | undefined {
  const raw = nonEmptyOption(values, name);
  if (raw === undefined) return undefined;
  if (!choices.includes(raw)) throw new UsageError(`--${name} must be ${choices.join(' or ')}, not [${raw}]`);
  return raw;
}

function slicesOption(values: OptionValues): string | undefined {
  const raw = nonEmptyOption(values, 'slices');
  if (raw === undefined) return undefined;
  if (raw === 'auto' || (/^\d+$/.test(raw) && Number(raw) >= 1 && Number.isSafeInteger(Number(raw)))) return raw;
  throw new UsageError(`--slices must be a whole number of at least 1 or "auto", not [${raw}]`);
}

/** ES takes a positive float, or -1 for unthrottled; 0 is rejected there too. */
function requestsPerSecondOption(values: OptionValues): string | undefined {
  const raw = nonEmptyOption(values, 'requests-per-second');
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw === '-1' || (/^\d*\.?\d+(e[+-]?\d+)?$/i.test(raw) && Number.isFinite(value) && value > 0)) return raw;
  throw new UsageError(`--requests-per-second must be a number above 0, or -1 for unthrottled, not [${raw}]`);
}
