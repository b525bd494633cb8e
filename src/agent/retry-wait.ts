/**
 * The SDK's own retries, made visible: the SDK retries a failed request (429, 408, 409, 5xx, a refused
 * connection) after a wait it computes from the response's `retry-after-ms` / `retry-after` headers, or
 * by exponential backoff. It announces nothing, so the session's fetch wrapper works out the same wait
 * from the same inputs and the page shows a countdown while it runs.
 */
import { MODEL_MAX_RETRIES } from '../core/constants.ts';
import type { QueryError } from '../core/events.ts';

/** The SDK's backoff without a header: 0.5 s doubled per retry, at most 8 s (its jitter only shortens it). */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8000;

export interface RetryInputs {
  /** The response status; undefined when the connection failed (no response). */
  status?: number;
  headers?: Headers;
  /** The `x-stainless-retry-count` of the failed request (0 for the first try). */
  retryCount: number;
  maxRetries?: number;
}

/**
 * How long the SDK will wait before sending the request again, or undefined when it will not retry
 * (an error it does not retry, or no retries left). Never throws.
 */
export function plannedRetryDelay(inputs: RetryInputs): number | undefined {
  const max = inputs.maxRetries ?? MODEL_MAX_RETRIES;
  if (!(inputs.retryCount < max)) return undefined;
  const status = inputs.status;
  if (status !== undefined) {
    const should = inputs.headers?.get('x-should-retry');
    if (should === 'false') return undefined;
    const retried = status === 408 || status === 409 || status === 429 || status >= 500;
    if (should !== 'true' && !retried) return undefined;
  }
  const fromHeaders = headerDelay(inputs.headers);
  if (fromHeaders !== undefined) return fromHeaders;
  return Math.min(BACKOFF_BASE_MS * 2 ** inputs.retryCount, BACKOFF_MAX_MS);
}

function headerDelay(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  let delay = Number.isNaN(ms) ? undefined : ms;
  const after = headers.get('retry-after');
  if (delay === undefined && after) {
    const seconds = Number.parseFloat(after);
    delay = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  // The SDK ignores a wait that is not positive or too long for one timer.
  return delay !== undefined && delay > 0 && delay <= 2 ** 31 - 1 ? delay : undefined;
}

/** The error a failed status stands for, in the page's terms (the body is the SDK's to read). */
export function errorOfStatus(status: number | undefined): QueryError {
  if (status === undefined) return { kind: 'network', message: 'Could not reach the API.' };
  if (status === 429) return { kind: 'rate_limit', status, message: `Rate limited (${status}).` };
  if (status === 529) return { kind: 'overloaded', status, message: `The API is overloaded (${status}).` };
  return { kind: 'server', status, message: `The API failed (${status}).` };
}

/** A request header's value from any HeadersInit shape (case-insensitive). */
export function headerOf(headers: HeadersInit | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers as Record<string, string>);
  return pairs.find(([k]) => k.toLowerCase() === lower)?.[1];
}
