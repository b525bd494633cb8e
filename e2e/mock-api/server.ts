/**
 * A mock of the Anthropic Messages API on node:http, for unit tests (the real SDK in-process) and
 * Playwright tests (the page talks to it over HTTP with CORS).
 *
 * Routes: POST /v1/messages (JSON or SSE), POST /v1/messages/count_tokens, GET /v1/models[/:id],
 * OPTIONS (CORS preflight, 204). Every POST /v1/messages is recorded, rejected ones included. A request
 * passes auth, then validation (400s modeled on the real API), and only then consumes a scripted turn.
 * With no turn left, the answer is an end_turn text `[mock] no scripted turn left`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_MODEL } from '../../src/core/constants.ts';
import { estimateInputTokens, PromptCache } from './cache.ts';
import { type ApiError, faultError, invalidRequest, notFound } from './errors.ts';
import {
  answerPreflight,
  baseHeaders,
  checkAuth,
  flatHeaders,
  readBody,
  sendError,
  sendJson,
} from './http.ts';
import { requestId } from './ids.ts';
import { buildMessage, resolveTurn, TurnQueue } from './script.ts';
import { errorEvent, formatEvent, messageEvents, type SseEvent } from './sse.ts';
import { checkContextWindow, checkThinking, ThinkingSignatures } from './thinking.ts';
import type { Fault, MessagesBody, MockApi, MockApiOptions, RecordedRequest, TurnSpec } from './types.ts';
import { checkToolSearchBeta, validateMessagesRequest, visibleToolNames } from './validate.ts';

export { EXHAUSTED_TEXT } from './script.ts';
export type * from './types.ts';

type Json = Record<string, unknown>;
type Admission = { error: ApiError; body?: undefined } | { error?: undefined; body: Json };

/**
 * Models listed by GET /v1/models (and answered by GET /v1/models/{id}), newest first. The app's default
 * model comes first: a page pointed at the mock asks for it at load (its context window), and must not get
 * a 404 for a model it has not chosen.
 */
export const MOCK_MODELS: Anthropic.ModelInfo[] = [
  model(DEFAULT_MODEL, 'Claude Sonnet 5.5', '2026-08-20T00:00:00Z'),
  model('claude-opus-4-6', 'Claude Opus 4.6', '2026-02-05T00:00:00Z'),
  model('claude-sonnet-4-6', 'Claude Sonnet 4.6', '2026-02-17T00:00:00Z'),
  model('claude-haiku-4-5', 'Claude Haiku 4.5', '2025-10-15T00:00:00Z'),
  model('claude-sonnet-4-5', 'Claude Sonnet 4.5', '2025-09-29T00:00:00Z'),
];

/** The context window the models list reports when the server enforces none. */
export const DEFAULT_MOCK_CONTEXT_WINDOW = 200_000;

function model(id: string, display_name: string, created_at: string): Anthropic.ModelInfo {
  return { type: 'model', id, display_name, created_at } as Anthropic.ModelInfo;
}

/** The tool call streamed by a `cut_stream` turn that scripts no content. */
const CUT_DEFAULT_CONTENT: TurnSpec['content'] = [
  { type: 'tool_use', name: 'Read', input: { file_path: '/README.md', offset: 0, limit: 2000 } },
];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a mock server on `host` (default 127.0.0.1) and `port` (default: a free one). Resolves once it
 * listens. Never calls the real API.
 */
export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const clock = options.clock ?? Date.now;
  const queue = new TurnQueue();
  const cache = new PromptCache({
    clock,
    minTokens: options.cache?.minTokens,
    lookback: options.cache?.lookback,
  });
  const requests: RecordedRequest[] = [];
  const signatures = new ThinkingSignatures();
  /** Models as listed, with the context window this server enforces (when it enforces one). */
  const models = MOCK_MODELS.map((m) => ({
    ...m,
    max_input_tokens: options.contextWindow ?? DEFAULT_MOCK_CONTEXT_WINDOW,
    max_tokens: 64_000,
  }));

  const server = createServer((req, res) => {
    const rid = requestId();
    route(req, res, rid).catch((err: unknown) => {
      if (!res.headersSent) {
        sendError(req, res, rid, { status: 500, type: 'api_error', message: `[mock] ${String(err)}` });
      } else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse, rid: string): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://mock').pathname.replace(/\/+$/, '');
    if (req.method === 'OPTIONS') return answerPreflight(req, res, rid);
    if (req.method === 'POST' && path === '/v1/messages') return handleMessages(req, res, rid);
    if (req.method === 'POST' && path === '/v1/messages/count_tokens')
      return handleCountTokens(req, res, rid);
    await readBody(req);
    if (req.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
      const auth = checkAuth(req);
      if (auth) return sendError(req, res, rid, auth);
      return path === '/v1/models' ? listModels(req, res, rid) : getModel(req, res, rid, path.slice(11));
    }
    sendError(req, res, rid, notFound(`${req.method} ${path} not found`));
  }

  /** Auth, version header, JSON parse, validation: the first error, or the parsed body. */
  function admit(req: IncomingMessage, raw: string, countTokens: boolean): Admission {
    const auth = checkAuth(req);
    if (auth) return { error: auth };
    if (!req.headers['anthropic-version'])
      return { error: invalidRequest('anthropic-version: header is required') };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { error: invalidRequest('There was an error parsing the body of the request as JSON') };
    }
    const invalid =
      validateMessagesRequest(parsed, {
        countTokens,
        toolReference: options.toolReference,
        serverTools: options.serverTools,
      }) ??
      (options.requireToolSearchBeta === false || options.toolReference === false
        ? null
        : checkToolSearchBeta(parsed, req.headers['anthropic-beta'])) ??
      (countTokens
        ? null
        : (checkThinking(parsed as Json, signatures) ??
          checkContextWindow(estimateInputTokens(parsed as Json), options.contextWindow)));
    return invalid ? { error: invalidRequest(invalid) } : { body: parsed as Json };
  }

  async function handleCountTokens(req: IncomingMessage, res: ServerResponse, rid: string): Promise<void> {
    const admitted = admit(req, await readBody(req), true);
    if (admitted.error) return sendError(req, res, rid, admitted.error);
    sendJson(req, res, rid, 200, { input_tokens: estimateInputTokens(admitted.body) });
  }

  async function handleMessages(req: IncomingMessage, res: ServerResponse, rid: string): Promise<void> {
    const raw = await readBody(req);
    let body: Json = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) body = parsed;
    } catch {}
    const record: RecordedRequest = {
      body: body as unknown as MessagesBody,
      rawBody: raw,
      headers: flatHeaders(req),
      status: 0,
      requestId: rid,
      stream: body.stream === true,
      receivedAt: clock(),
    };
    requests.push(record);
    const fail = (err: ApiError): void => {
      record.status = err.status;
      record.error = err.message;
      sendError(req, res, rid, err);
    };

    const admitted = admit(req, raw, false);
    if (admitted.error) return fail(admitted.error);
    record.visibleTools = visibleToolNames(admitted.body);

    let spec: TurnSpec;
    try {
      const resolved = await resolveTurn(queue.shift(), record);
      spec = resolved.spec;
      if (resolved.exhausted) record.exhausted = true;
    } catch (err) {
      return fail({ status: 500, type: 'api_error', message: `[mock] scripted turn threw: ${String(err)}` });
    }
    if (options.checkToolVisibility) {
      const unseen = (spec.content ?? []).find(
        (b) => b.type === 'tool_use' && !record.visibleTools?.includes(b.name),
      );
      if (unseen?.type === 'tool_use') {
        return fail({
          status: 400,
          type: 'invalid_request_error',
          message: `[mock] scripted tool_use of '${unseen.name}', which the model cannot see (not in tools, or deferred and never referenced)`,
        });
      }
    }
    const fault = spec.fault;
    if (fault) {
      record.fault = fault.kind;
      const err = faultError(fault);
      if (err) return fail(err);
      if (!record.stream && fault.kind === 'stream_error') return fail(streamErrorAsHttp(fault));
      if (!record.stream && fault.kind === 'cut_stream') return void req.socket.destroy();
      if (fault.kind === 'hang' && (fault.afterEvents === undefined || !record.stream)) {
        // Not a byte: the request is held until the client gives up.
        return holdOpen(res, record);
      }
    }

    const content =
      fault?.kind === 'cut_stream' && !spec.content?.length ? CUT_DEFAULT_CONTENT : spec.content;
    const message = buildMessage({ ...spec, content }, String(body.model), cache.account(body));
    record.response = message;
    for (const block of message.content)
      if (block.type === 'thinking') signatures.issue(block.signature, block.thinking);

    if (!record.stream) {
      record.status = 200;
      if (fault?.kind === 'malformed') {
        res.writeHead(200, { ...baseHeaders(req, rid), 'content-type': 'application/json' });
        return void res.end(fault.line ?? JSON.stringify(message).slice(0, 40));
      }
      return sendJson(req, res, rid, 200, message);
    }
    await streamMessage(req, res, rid, record, message, spec);
  }

  async function streamMessage(
    req: IncomingMessage,
    res: ServerResponse,
    rid: string,
    record: RecordedRequest,
    message: Anthropic.Message,
    spec: TurnSpec,
  ): Promise<void> {
    const events = messageEvents(message);
    const fault = spec.fault;
    let limit = events.length;
    let tail: SseEvent | undefined;
    if (fault?.kind === 'cut_stream') limit = fault.afterEvents ?? defaultCut(events);
    if (fault?.kind === 'stream_error') {
      limit = fault.afterEvents ?? 1;
      tail = errorEvent(fault.type ?? 'overloaded_error', fault.message ?? 'Overloaded');
    }
    if (fault?.kind === 'hang' || fault?.kind === 'malformed') limit = fault.afterEvents ?? 3;
    limit = Math.min(limit, events.length);

    let closed = false;
    let cutting = false;
    res.on('close', () => {
      closed = true;
      if (!res.writableFinished && !cutting) record.aborted = true;
    });
    record.status = 200;
    res.writeHead(200, {
      ...baseHeaders(req, rid),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const delay = spec.chunkDelayMs ?? 0;
    for (let i = 0; i < limit; i++) {
      if (i > 0 && delay > 0) await sleep(delay);
      if (closed) return;
      res.write(formatEvent(events[i]));
    }
    if (tail) {
      if (delay > 0) await sleep(delay);
      if (!closed) res.end(formatEvent(tail));
      return;
    }
    if (fault?.kind === 'hang') return holdOpen(res, record);
    if (fault?.kind === 'malformed') {
      const next = events[limit] ?? events[events.length - 1];
      const line = fault.line ?? JSON.stringify(next.data).slice(0, 20);
      if (delay > 0) await sleep(delay);
      if (!closed) res.end(`event: ${next.event}\ndata: ${line}\n\n`);
      return;
    }
    if (fault?.kind === 'cut_stream') {
      cutting = true;
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      await sleep(5);
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  function listModels(req: IncomingMessage, res: ServerResponse, rid: string): void {
    const query = new URL(req.url ?? '/', 'http://mock').searchParams;
    const limit = Math.max(1, Math.min(1000, Number(query.get('limit') ?? 20) || 20));
    let start = 0;
    let end = models.length;
    const after = query.get('after_id');
    const before = query.get('before_id');
    if (after) start = models.findIndex((m) => m.id === after) + 1;
    if (before)
      end = Math.max(
        0,
        models.findIndex((m) => m.id === before),
      );
    let page = models.slice(start, end);
    const hasMore = page.length > limit;
    page = before ? page.slice(-limit) : page.slice(0, limit);
    sendJson(req, res, rid, 200, {
      data: page,
      has_more: hasMore,
      first_id: page[0]?.id ?? null,
      last_id: page[page.length - 1]?.id ?? null,
    });
  }

  function getModel(req: IncomingMessage, res: ServerResponse, rid: string, id: string): void {
    const found = models.find((m) => m.id === decodeURIComponent(id));
    if (found) sendJson(req, res, rid, 200, found);
    else sendError(req, res, rid, notFound(`model: ${decodeURIComponent(id)}`));
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    requests,
    script: (turns) => queue.replace(turns),
    push: (...turns) => queue.push(...turns),
    pending: () => queue.pending(),
    reset: () => {
      queue.clear();
      requests.length = 0;
      cache.clear();
      signatures.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Keeps a response open without writing to it, until the client closes it (then marked aborted). */
function holdOpen(res: ServerResponse, record: RecordedRequest): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    res.on('close', () => {
      record.aborted = true;
      resolve();
    });
  });
}

/** By default a cut stream stops after the second input_json_delta (or halfway through the events). */
function defaultCut(events: SseEvent[]): number {
  let deltas = 0;
  for (let i = 0; i < events.length; i++) {
    const delta = events[i].data.delta as Json | undefined;
    if (delta?.type === 'input_json_delta' && ++deltas === 2) return i + 1;
  }
  return Math.max(1, Math.floor(events.length / 2));
}

/** A `stream_error` fault on a non-streaming request: the equivalent HTTP error. */
function streamErrorAsHttp(fault: Extract<Fault, { kind: 'stream_error' }>): ApiError {
  const type = fault.type ?? 'overloaded_error';
  const status = { overloaded_error: 529, api_error: 500, rate_limit_error: 429 }[type] ?? 400;
  return { status, type, message: fault.message ?? 'Overloaded' };
}
