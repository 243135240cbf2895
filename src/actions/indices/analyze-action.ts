/**
 * `GET|POST /_analyze` and `/{index}/_analyze` (RestAnalyzeAction / TransportAnalyzeAction): text through a named
 * analyzer, a tokenizer + filters assembled for the request, a field's analyzer (or a keyword field's
 * normalizer), a normalizer, or the index's (else the standard) default analyzer; `explain` gives the tokens
 * after each stage.
 */
import { ownValue } from '../../common/own-keys.js';
import { didYouMean } from '../../common/did-you-mean.js';
import { EsError, errors } from '../../common/errors.js';
import { AnalysisRegistry, analyzeTexts, explainTexts, keywordAnalyzer, type Analyzer, type NameOrDefinition } from '../../analysis/index.js';
import { fieldOptions, lookupPath, type FieldMapping } from '../../mapping/index.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { resolveSingleIndex } from '../documents/document-reader.js';

const FIELDS = new Set(['text', 'analyzer', 'tokenizer', 'filter', 'char_filter', 'normalizer', 'field', 'explain', 'attributes', 'token_filter']);

const GLOBAL = AnalysisRegistry.global();

interface AnalyzeRequest {
  text: string[];
  analyzer?: string;
  tokenizer?: NameOrDefinition;
  filter: NameOrDefinition[];
  charFilter: NameOrDefinition[];
  normalizer?: string;
  field?: string;
  explain: boolean;
  attributes: string[];
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

function parseRequest(body: unknown): AnalyzeRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new EsError('x_content_parse_exception', '[1:1] [analyze_request] expected START_OBJECT');
  const object = body as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (!FIELDS.has(key)) throw new EsError('x_content_parse_exception', `[1:2] [analyze_request] unknown field [${key}]${didYouMean(key, FIELDS)}`);
  }
  const str = (key: string): string | undefined => (object[key] === undefined || object[key] === null ? undefined : String(object[key]));
  const component = (value: unknown): NameOrDefinition => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) as NameOrDefinition : String(value));
  return {
    text: asList(object['text']).map((value) => String(value)),
    analyzer: str('analyzer'),
    tokenizer: object['tokenizer'] === undefined ? undefined : component(object['tokenizer']),
    filter: asList(object['filter'] ?? object['token_filter']).map(component),
    charFilter: asList(object['char_filter']).map(component),
    normalizer: str('normalizer'),
    field: str('field'),
    explain: object['explain'] === true || object['explain'] === 'true',
    attributes: asList(object['attributes']).map(String),
  };
}

function problems(request: AnalyzeRequest, index: string | undefined): string[] {
  const out: string[] = [];
  if (request.text.length === 0) out.push('text is missing');
  if (index === undefined && request.normalizer !== undefined) out.push('index is required if normalizer is specified');
  if (request.normalizer !== undefined && (request.tokenizer !== undefined || request.analyzer !== undefined)) {
    out.push('tokenizer/analyze should be null if normalizer is specified');
  }
  if (request.analyzer !== undefined && (request.tokenizer !== undefined || request.charFilter.length > 0 || request.filter.length > 0)) {
    out.push('cannot define extra components on a named analyzer');
  }
  if (request.field !== undefined && (request.tokenizer !== undefined || request.charFilter.length > 0 || request.filter.length > 0)) {
    out.push('cannot define extra components on a field-specific analyzer');
  }
  return out;
}

/** A field's mapping, multi-fields included (`title.raw`). */
function findField(root: Parameters<typeof lookupPath>[0], path: string): FieldMapping | undefined {
  const direct = lookupPath(root, path);
  if (direct?.kind === 'field') return direct;
  const parts = path.split('.');
  for (let split = parts.length - 1; split > 0; split--) {
    const parent = lookupPath(root, parts.slice(0, split).join('.'));
    if (parent?.kind !== 'field') continue;
    let field: FieldMapping | undefined = parent;
    for (const part of parts.slice(split)) field = field === undefined ? undefined : ownValue(field.fields, part);
    if (field !== undefined) return field;
  }
  return undefined;
}

const analyzeHandler: Route['handler'] = async (request, context) => {
  const body = request.hasBody ? request.json() : {};
  const analyzeRequest = parseRequest(body);
  const expression = request.pathParams['index'] ?? request.param('index');
  const found = problems(analyzeRequest, expression);
  if (found.length > 0) throw errors.requestValidation(found);
  let registry = GLOBAL;
  let maxTokenCount: number | undefined;
  let indexService;
  if (expression !== undefined) {
    const name = resolveSingleIndex(context.services.clusterService.state(), expression);
    indexService = indicesOf(context.services).service.indexService(name);
    if (indexService === undefined) throw errors.indexNotFound(name);
    registry = indexService.analysis;
    const setting = indexService.flatSettings['index.analyze.max_token_count'];
    if (setting !== undefined) maxTokenCount = Number(setting);
  }
  let analyzer: Analyzer;
  if (analyzeRequest.analyzer !== undefined) {
    analyzer = registry.analyzer(analyzeRequest.analyzer);
  } else if (analyzeRequest.tokenizer !== undefined || analyzeRequest.filter.length > 0 || analyzeRequest.charFilter.length > 0) {
    analyzer = registry.transientAnalyzer({ tokenizer: analyzeRequest.tokenizer, filter: analyzeRequest.filter, char_filter: analyzeRequest.charFilter });
  } else if (analyzeRequest.normalizer !== undefined) {
    const normalizer = registry.findNormalizer(analyzeRequest.normalizer);
    if (normalizer === undefined) throw errors.illegalArgument(`failed to find normalizer under [${analyzeRequest.normalizer}]`);
    analyzer = normalizer;
  } else if (analyzeRequest.field !== undefined && indexService !== undefined) {
    const field = findField(indexService.mapping, analyzeRequest.field);
    if (field === undefined) analyzer = registry.defaultAnalyzer;
    else {
      const options = fieldOptions(field, indexService.settings.mapping);
      if (options.type === 'text') analyzer = registry.analyzer(options.analyzer);
      else if (options.type === 'keyword') analyzer = options.normalizer === null ? keywordAnalyzer() : (registry.findNormalizer(options.normalizer) ?? keywordAnalyzer());
      else throw errors.illegalArgument(`Can't process field [${analyzeRequest.field}], Analysis requests are only supported on tokenized fields`);
    }
  } else {
    analyzer = registry.defaultAnalyzer;
  }
  const options = { maxTokenCount, attributes: analyzeRequest.attributes };
  if (analyzeRequest.explain) return json({ detail: explainTexts(analyzer, analyzeRequest.text, options) });
  return json({ tokens: analyzeTexts(analyzer, analyzeRequest.text, options) });
};

export const analyzeRoutes: Route[] = [
  { method: ['GET', 'POST'], path: '/_analyze', action: 'indices:admin/analyze', params: ['index'], body: 'optional', handler: analyzeHandler },
  { method: ['GET', 'POST'], path: '/{index}/_analyze', action: 'indices:admin/analyze', params: ['index'], body: 'optional', handler: analyzeHandler },
];
