/**
 * HTTP plumbing of the mock server: CORS, auth, body reading, JSON and error responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiError, authError, errorBody } from './errors.ts';

/** Response headers a browser page may read. */
const EXPOSED_HEADERS = ['request-id', 'retry-after', 'retry-after-ms', 'x-should-retry'].join(', ');
/** Allowed when a preflight names no headers (the SDK's usual set). */
const DEFAULT_ALLOWED_HEADERS = [
  'accept',
  'content-type',
  'x-api-key',
  'authorization',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'x-stainless-arch',
  'x-stainless-lang',
  'x-stainless-os',
  'x-stainless-package-version',
  'x-stainless-retry-count',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-timeout',
  'x-stainless-helper',
  'x-stainless-helper-method',
].join(', ');

/**
 * Headers on every response: CORS (origin echoed, or `*`), the exposed headers, and
 * `Cross-Origin-Resource-Policy: cross-origin` for pages with COEP require-corp.
 */
export function baseHeaders(req: IncomingMessage, requestId: string): Record<string, string> {
  const origin = req.headers.origin;
  return {
    'access-control-allow-origin': origin ?? '*',
    vary: 'Origin',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'cross-origin-resource-policy': 'cross-origin',
    'request-id': requestId,
  };
}

/** Answers a CORS preflight with 204, allowing the requested headers and methods. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    ...baseHeaders(req, requestId),
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': requested && requested.length > 0 ? requested : DEFAULT_ALLOWED_HEADERS,
    'access-control-max-age': '600',
    'content-length': '0',
  });
  res.end();
}

/** The auth error for a request, or null when its key is accepted. */
export function checkAuth(req: IncomingMessage): ApiError | null {
  const apiKey = req.headers['x-api-key'];
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const key = typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : bearer;
  if (!key) return authError('x-api-key header is required');
  if (key.startsWith('bad')) return authError('invalid x-api-key');
  if (req.headers.origin && req.headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
    return authError("CORS requests must set 'anthropic-dangerous-direct-browser-access' header");
  }
  return null;
}

/** Lower-cased single-valued copy of the request headers. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The whole request body as UTF-8 text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends a JSON body with `status`. */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...baseHeaders(req, requestId),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Sends an error in the API's shape. */
export function sendError(req: IncomingMessage, res: ServerResponse, requestId: string, err: ApiError): void {
  sendJson(req, res, requestId, err.status, errorBody(err, requestId), err.headers);
}
