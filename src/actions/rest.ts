/**
 * The contract between the HTTP layer and the REST handlers. A Route declares its method, path pattern,
 * the query parameters it reads and the task it runs as; the HTTP layer matches it, rejects parameters the
 * route does not declare (as ES does), registers the task, and renders what the handler returns.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Task } from '../tasks/task.js';
import type { NodeServices } from './context.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

/** What a handler sees of the request. Parameter accessors parse as ES parses (strict booleans, time values). */
export interface RestRequest {
  readonly method: HttpMethod;
  /** Decoded path without the query string, e.g. `/_cat/nodes`. */
  readonly path: string;
  /** The raw request target with its query string, as ES's `request.uri()`. */
  readonly uri: string;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly human: boolean;
  readonly pretty: boolean;
  /**
   * The `compatible-with` version the request's media types asked for (ES's RestRequest.getRestApiVersion() when
   * it is not the current one): 7 turns on ES 8's REST API compatibility with 7.x (`include_type_name`, ...).
   */
  readonly compatibleWith: number | undefined;
  hasParam(name: string): boolean;
  param(name: string): string | undefined;
  paramBool(name: string, defaultValue: boolean): boolean;
  /** A time value in milliseconds, or the default when absent. */
  paramTimeMillis(name: string, defaultMillis: number): number;
  paramInt(name: string, defaultValue: number): number;
  /** Comma list; absent or empty gives []. */
  paramList(name: string): string[];
  readonly hasBody: boolean;
  body(): Buffer;
  /** The body parsed as JSON (or YAML) into plain values; errors are ES parse errors. */
  json(): unknown;
  /** Resolves when the client goes away before the response is sent. */
  readonly clientClosed: Promise<void>;
}

export interface JsonResponse {
  kind: 'json';
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Plain text (cat tables, cat help); `format`/`filter_path` do not apply. */
export interface TextResponse {
  kind: 'text';
  status: number;
  text: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A status with no body, e.g. `HEAD /`. */
export interface EmptyResponse {
  kind: 'empty';
  status: number;
  headers?: Record<string, string>;
}

export type RestResponse = JsonResponse | TextResponse | EmptyResponse;

export interface ActionContext {
  /** The task the request runs as; handlers check `task.ensureNotCancelled()` at safe points. */
  readonly task: Task;
  readonly services: NodeServices;
  /**
   * Lets the task outlive the HTTP response (ES's `wait_for_completion=false`): once called, the HTTP layer no
   * longer unregisters the task when the handler returns, and the handler must call
   * `services.taskManager.unregister(task)` itself when the background work ends. Absent where a handler is
   * run outside the HTTP layer (unit tests, in-process children), which then cannot detach.
   */
  readonly detach?: () => void;
}

export type BodyPolicy = 'none' | 'optional' | 'required';

export interface Route {
  method: HttpMethod | HttpMethod[];
  /** Path pattern with `{name}` segments, e.g. `/_tasks/{task_id}/_cancel`. */
  path: string;
  /** Query parameters the handler reads (beyond path params and the common response params). */
  params?: readonly string[];
  /** Response-shaping parameters the handler understands (`level`, cat's `h`/`v`/...). */
  responseParams?: readonly string[];
  /** Parameters ES reads only for `compatible-with=7` requests (RestApiVersion.V_7); unknown to any other request. */
  v7Params?: readonly string[];
  body?: BodyPolicy;
  /** Skip the unknown-parameter check (the answer does not depend on parameters, e.g. a feature Gannet lacks). */
  acceptsAnyParameters?: boolean;
  /** ES action name the request runs as; routes without one still run as a task named after their path. */
  action: string;
  cancellable?: boolean;
  /** Builds the task description (shown with `detailed`). */
  describe?: (request: RestRequest) => string | undefined;
  handler: (request: RestRequest, context: ActionContext) => Promise<RestResponse>;
}

export function json(body: unknown, status = 200, headers?: Record<string, string>): JsonResponse {
  return { kind: 'json', status, body, headers };
}

export function text(body: string, status = 200): TextResponse {
  return { kind: 'text', status, text: body };
}

export function empty(status = 200): EmptyResponse {
  return { kind: 'empty', status };
}
