/**
 * `POST /{alias}/_rollover[/{new_index}]` (RestRolloverIndexAction, TransportRolloverAction, MetadataRolloverService):
 * when the alias's write index meets a condition (`max_age`, `max_docs`, `max_size`, `max_primary_shard_size`,
 * `max_primary_shard_docs`, and every `min_*` given), a new index is created (named from the old one's `-000001`
 * counter, or as asked; the body's settings, mappings and aliases and the templates apply) and the alias moves to it
 * in the same cluster-state update. `dry_run` evaluates without changing anything. Conditions are measured on the
 * old index's primaries wherever they live, from the stats their nodes report (ES's IndicesStatsRequest for docs
 * and store): measured on this node's copies alone, a cluster never rolled over by docs or size from a node that
 * did not hold the primaries.
 */
import { errors, indexErrors } from '../../common/errors.js';
import { parseByteSize, formatByteSize } from '../../common/byte-size.js';
import { parseTimeValueMillis, formatTimeValueMillis } from '../../common/time-value.js';
import { isAlias, isDateMathExpression, resolveDateMathExpression, type ClusterState } from '../../cluster/index.js';
import { aliasOf, indicesOfAlias, writeIndexOfAlias } from '../../cluster/alias-metadata.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { collectShardStats } from './shard-stats-broadcast.js';

type ConditionKind = 'age' | 'docs' | 'size' | 'primary_shard_size' | 'primary_shard_docs';

interface Condition {
  readonly name: string;
  readonly bound: 'max' | 'min';
  readonly kind: ConditionKind;
  readonly value: number;
  /** How ES prints the value (TimeValue / ByteSizeValue toString, or the number). */
  readonly text: string;
}

const CONDITION_KINDS: Record<string, ConditionKind> = {
  age: 'age',
  docs: 'docs',
  size: 'size',
  primary_shard_size: 'primary_shard_size',
  primary_shard_docs: 'primary_shard_docs',
};

function parseConditions(raw: unknown): Condition[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw errors.jsonParse('[rollover] conditions doesn\'t support values of type: VALUE_STRING');
  const conditions: Condition[] = [];
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const match = /^(max|min)_(.+)$/.exec(name);
    const kind = match ? CONDITION_KINDS[match[2]!] : undefined;
    if (match === null || kind === undefined) throw errors.jsonParse(`[conditions] unknown field [${name}]`);
    const bound = match[1] as 'max' | 'min';
    const textValue = String(value);
    if (kind === 'age') {
      const millis = parseTimeValueMillis(textValue, name);
      conditions.push({ name, bound, kind, value: millis, text: formatTimeValueMillis(millis) });
    } else if (kind === 'size' || kind === 'primary_shard_size') {
      const bytes = parseByteSize(textValue, name);
      conditions.push({ name, bound, kind, value: bytes, text: formatByteSize(bytes) });
    } else {
      const count = Number(textValue);
      if (!Number.isInteger(count)) throw errors.jsonParse(`[conditions] failed to parse field [${name}]`);
      conditions.push({ name, bound, kind, value: count, text: String(count) });
    }
  }
  if (conditions.some((condition) => condition.bound === 'min') && !conditions.some((condition) => condition.bound === 'max')) {
    throw errors.requestValidation(['at least one max_* rollover condition must be set when using min_* conditions']);
  }
  return conditions;
}

interface IndexFigures {
  readonly ageMillis: number;
  readonly docs: number;
  readonly size: number;
  readonly maxPrimaryShardSize: number;
  readonly maxPrimaryShardDocs: number;
}

async function figuresOf(context: Parameters<Route['handler']>[1], state: ClusterState, index: string, creationDateMillis: number, needsStats: boolean): Promise<IndexFigures> {
  const primaries = needsStats ? (await collectShardStats(context, state, [index])).shards.filter((shard) => shard.index === index && shard.primary) : [];
  return {
    ageMillis: Date.now() - creationDateMillis,
    docs: primaries.reduce((sum, shard) => sum + shard.engine.docs.count, 0),
    size: primaries.reduce((sum, shard) => sum + shard.engine.store.sizeInBytes, 0),
    maxPrimaryShardSize: Math.max(0, ...primaries.map((shard) => shard.engine.store.sizeInBytes)),
    maxPrimaryShardDocs: Math.max(0, ...primaries.map((shard) => shard.engine.docs.count)),
  };
}

function measured(figures: IndexFigures, kind: ConditionKind): number {
  switch (kind) {
    case 'age':
      return figures.ageMillis;
    case 'docs':
      return figures.docs;
    case 'size':
      return figures.size;
    case 'primary_shard_size':
      return figures.maxPrimaryShardSize;
    case 'primary_shard_docs':
      return figures.maxPrimaryShardDocs;
  }
}

/** MetadataRolloverService's generated name: the old name's `-N` counter plus one, six digits (date math kept). */
function nextIndexName(state: ClusterState, oldIndex: string): string {
  const provided = state.indices.get(oldIndex)?.settings['index.provided_name'] ?? oldIndex;
  const source = isDateMathExpression(provided) ? provided : oldIndex;
  const match = /^(.*)-(\d+)(>?)$/.exec(source);
  if (match === null) throw errors.illegalArgument(`index name [${oldIndex}] does not match pattern '^.*-\\d+$'`);
  const next = `${match[1]}-${String(Number(match[2]) + 1).padStart(6, '0')}${match[3]}`;
  return isDateMathExpression(next) ? resolveDateMathExpression(next) : next;
}

const rolloverHandler: Route['handler'] = async (request, context) => {
  const alias = request.pathParams['index']!;
  const dryRun = request.paramBool('dry_run', false);
  request.paramTimeMillis('master_timeout', 30_000);
  const body = (request.hasBody ? request.json() : {}) as Record<string, unknown>;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.jsonParse('[rollover] failed to parse the request body: expected an object');
  for (const key of Object.keys(body)) {
    if (!['conditions', 'settings', 'mappings', 'aliases'].includes(key)) throw errors.jsonParse(`[rollover] unknown field [${key}]`);
  }
  const conditions = parseConditions(body['conditions']);
  const state = context.services.clusterService.state();
  if (state.indices.has(alias)) throw errors.illegalArgument('rollover target is a [concrete index] but one of [alias,data_stream] was expected');
  if (!isAlias(state, alias)) throw errors.resourceNotFound(`rollover target [${alias}] does not exist`);
  const oldMetadata = writeIndexOfAlias(state, alias);
  if (oldMetadata === undefined) throw errors.illegalArgument(`rollover target [${alias}] does not point to a write index`);
  const oldIndex = oldMetadata.name;
  const newIndex = request.pathParams['new_index'] !== undefined ? resolveDateMathExpression(request.pathParams['new_index']) : nextIndexName(state, oldIndex);
  const existing = state.indices.get(newIndex);
  if (existing !== undefined) throw indexErrors.alreadyExists(newIndex, existing.uuid);

  const figures = await figuresOf(context, state, oldIndex, oldMetadata.creationDateMillis, conditions.some((condition) => condition.kind !== 'age'));
  const results: Record<string, boolean> = {};
  for (const condition of conditions) {
    const value = measured(figures, condition.kind);
    // Every Max*Condition and Min*Condition is met at or above its value.
    results[`[${condition.name}: ${condition.text}]`] = value >= condition.value;
  }
  const maxMet = conditions.some((condition) => condition.bound === 'max' && results[`[${condition.name}: ${condition.text}]`]);
  const minsMet = conditions.filter((condition) => condition.bound === 'min').every((condition) => results[`[${condition.name}: ${condition.text}]`]);
  const shouldRoll = conditions.length === 0 || (maxMet && minsMet);
  const answer = (acknowledged: boolean, shardsAcknowledged: boolean, rolledOver: boolean) =>
    json({ acknowledged, shards_acknowledged: shardsAcknowledged, old_index: oldIndex, new_index: newIndex, rolled_over: rolledOver, dry_run: dryRun, lazy: false, conditions: results });
  if (dryRun || !shouldRoll) return answer(false, false, false);

  const explicitWriteIndex = aliasOf(oldMetadata, alias)?.isWriteIndex === true;
  // ES refuses a rollover into aliases that the new index would then share with the old one as a second writer.
  if (indicesOfAlias(state, alias).length > 1 && !explicitWriteIndex) throw errors.illegalArgument(`rollover target [${alias}] does not point to a write index`);
  const result = await indicesOf(context.services).metadata.createIndex(
    { index: newIndex, settings: body['settings'], mappings: body['mappings'], aliases: body['aliases'] },
    {
      cause: 'rollover_index',
      timeoutMillis: request.paramTimeMillis('timeout', 30_000),
      ...(request.param('wait_for_active_shards') !== undefined && { waitForActiveShards: request.param('wait_for_active_shards')! }),
      rolloverOf: { alias, oldIndex, explicitWriteIndex },
      signal: context.task.signal,
    },
  );
  return answer(true, result.shardsAcknowledged, true);
};

const PARAMS = ['dry_run', 'wait_for_active_shards', 'timeout', 'master_timeout', 'lazy'];

export const rolloverRoutes: Route[] = [
  { method: 'POST', path: '/{index}/_rollover', action: 'indices:admin/rollover', params: PARAMS, body: 'optional', handler: rolloverHandler },
  { method: 'POST', path: '/{index}/_rollover/{new_index}', action: 'indices:admin/rollover', params: PARAMS, body: 'optional', handler: rolloverHandler },
];
