/** The RestRequest handlers see, built from a Node request after routing. */
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { EsError } from '../common/errors.js';
import { parseRestBoolean } from '../common/booleans.js';
import { parseTimeValueMillis } from '../common/time-value.js';
import type { HttpMethod, RestRequest } from '../actions/rest.js';
import { parseMediaType } from './media-type.js';
import { decodeUtf8, parseJsonBytes, checkNestingDepth } from './json-body.js';

export class HttpRestRequest implements RestRequest {
  readonly human: boolean;
  readonly pretty: boolean;
  private closed: Promise<void> | (() => Promise<void>);

  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly uri: string,
    readonly pathParams: Readonly<Record<string, string>>,
    readonly headers: IncomingHttpHeaders,
    private readonly query: ReadonlyMap<string, string>,
    private readonly content: Buffer,
    /** The promise, or what makes it when first asked for (the HTTP layer listens for the close only then). */
    clientClosed: Promise<void> | (() => Promise<void>),
    readonly compatibleWith: number | undefined = undefined,
  ) {
    this.human = parseRestBoolean(query.get('human'), false, 'human');
    this.pretty = parseRestBoolean(query.get('pretty'), false, 'pretty');
    this.closed = clientClosed;
  }

  get clientClosed(): Promise<void> {
    if (typeof this.closed === 'function') this.closed = this.closed();
    return this.closed;
  }

  hasParam(name: string): boolean {
    return this.query.has(name) || name in this.pathParams;
  }

  param(name: string): string | undefined {
    return this.pathParams[name] ?? this.query.get(name);
  }

  paramBool(name: string, defaultValue: boolean): boolean {
    return parseRestBoolean(this.param(name), defaultValue, name);
  }

  paramTimeMillis(name: string, defaultMillis: number): number {
    const value = this.param(name);
    return value === undefined ? defaultMillis : parseTimeValueMillis(value, name);
  }

  paramInt(name: string, defaultValue: number): number {
    const value = this.param(name);
    if (value === undefined) return defaultValue;
    if (!/^-?\d+$/.test(value.trim())) {
      throw new EsError('illegal_argument_exception', `Failed to parse int parameter [${name}] with value [${value}]`);
    }
    return Number(value);
  }

  paramList(name: string): string[] {
    const value = this.param(name);
    if (value === undefined || value === '') return [];
    return value.split(',').map((s) => s.trim()).filter(Boolean);
  }

  get hasBody(): boolean {
    return this.content.length > 0;
  }

  body(): Buffer {
    return this.content;
  }

  json(): unknown {
    if (!this.hasBody) throw new EsError('parse_exception', 'request body is required');
    const mediaType = parseMediaType(this.headers['content-type']);
    if (mediaType?.format === 'yaml') {
      const text = decodeUtf8(this.content);
      checkNestingDepth(text);
      try {
        return parseYaml(text);
      } catch (err) {
        throw new EsError('x_content_parse_exception', (err as Error).message);
      }
    }
    return parseJsonBytes(this.content);
  }
}
