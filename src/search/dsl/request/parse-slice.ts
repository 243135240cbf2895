/**
 * The `slice` section of a search body (ES's SliceBuilder.fromXContent with its setters' checks): `id`, `max`
 * and an optional `field`. Whether the request may slice (scroll or PIT only) and the per-index limit
 * `index.max_slices_per_scroll` are checked later, where ES checks them.
 */
import { ObjectParser } from '../xcontent/object-parser.js';
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import type { SliceSpec } from './search-request.js';

interface SliceState {
  field?: string;
  id: number;
  max: number;
}

/** SliceBuilder.setId: ids count from 0 and stay below max once max is known. */
function setId(state: SliceState, id: number): void {
  if (id < 0) throw illegalArgument('id must be greater than or equal to 0');
  if (state.max !== -1 && id >= state.max) throw illegalArgument('max must be greater than id');
  state.id = id;
}

/** SliceBuilder.setMax: at least two slices, more than the id once the id is known. */
function setMax(state: SliceState, max: number): void {
  if (max <= 1) throw illegalArgument('max must be greater than 1');
  if (state.id !== -1 && state.id >= max) throw illegalArgument('max must be greater than id');
  state.max = max;
}

const SLICE_PARSER = new ObjectParser<SliceState>('slice')
  .declare('field', 'STRING', (parser, state) => {
    state.field = parser.text();
  })
  .declare('id', 'INT', (parser, state) => setId(state, parser.intValue()))
  .declare('max', 'INT', (parser, state) => setMax(state, parser.intValue()));

export function parseSlice(parser: XContentParser): SliceSpec {
  const state = SLICE_PARSER.parse(parser, { id: -1, max: -1 });
  // ES leaves a missing id or max at -1 and fails later in odd ways; Gannet names what is missing.
  if (state.id === -1 || state.max === -1) throw illegalArgument('[slice] requires both [id] and [max]');
  return { ...(state.field !== undefined && { field: state.field }), id: state.id, max: state.max };
}
