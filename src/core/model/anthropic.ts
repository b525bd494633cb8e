/**
 * The model client: the real @anthropic-ai/sdk, configured for the browser. The SDK keeps its own
 * retries on 429/5xx (with retry-after); failures that remain become QueryErrors for the page.
 */
import Anthropic from '@anthropic-ai/sdk';
import { MODEL_MAX_RETRIES, STREAM_IDLE_TIMEOUT_MS } from '../constants.ts';
import { messageOf } from '../errors.ts';
import type { QueryError } from '../events.ts';
import { stallGuardedFetch, stallOf } from './stall-guard.ts';

export interface ModelClientSettings {
  apiKey: string;
  /** Default https://api.anthropic.com; the dev proxy is `${origin}/api/anthropic`. */
  baseURL?: string;
  maxRetries?: number;
  /** Per-request timeout, ms (the SDK's: until the response's headers). */
  timeoutMs?: number;
  /** A request with no byte for this long is given up (STREAM_IDLE_TIMEOUT_MS; 0: never). */
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/**
 * The base URL the SDK is given: what the user typed without trailing slashes or a final `/v1` (the SDK
 * adds `/v1/messages` itself: `https://api.anthropic.com/v1` would send to `/v1/v1/messages`, a 404).
 */
export function apiBaseURL(url: string | undefined): string {
  const trimmed = (url ?? '').trim().replace(/\/+$/, '');
  return trimmed.replace(/\/v1$/, '') || DEFAULT_BASE_URL;
}

export function createAnthropicClient(settings: ModelClientSettings): Anthropic {
  return new Anthropic({
    apiKey: settings.apiKey,
    baseURL: apiBaseURL(settings.baseURL),
    dangerouslyAllowBrowser: true,
    maxRetries: settings.maxRetries ?? MODEL_MAX_RETRIES,
    timeout: settings.timeoutMs ?? 10 * 60_000,
    fetch: stallGuardedFetch(
      settings.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      settings.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS,
    ),
  });
}

function apiErrorType(err: InstanceType<typeof Anthropic.APIError>): string | undefined {
  const body = err.error as { error?: { type?: string } } | undefined;
  return body?.error?.type;
}

function apiErrorMessage(err: InstanceType<typeof Anthropic.APIError>): string {
  const body = err.error as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? err.message;
}

/** " (529)" for a status, nothing when the error came in the stream (an SSE `error` event has none). */
const codeOf = (status: number | undefined) => (status === undefined ? '' : ` (${status})`);

/** Turns anything the SDK throws into a QueryError with a plain message. Never throws. */
export function classifyApiError(err: unknown): QueryError {
  if (err instanceof Anthropic.APIUserAbortError) return { kind: 'aborted', message: 'Request aborted.' };
  const stall = stallOf(err);
  if (stall) {
    const seconds =
      stall.idleMs < 10_000 ? (stall.idleMs / 1000).toFixed(1) : Math.round(stall.idleMs / 1000);
    return {
      kind: 'network',
      message: stall.midStream
        ? `The reply stalled: nothing came from the API for ${seconds} s, so it was given up.`
        : `The API did not answer: no response in ${seconds} s (the connection hung). Check your connection or the base URL in Settings.`,
    };
  }
  if (err instanceof Anthropic.APIConnectionError) {
    return {
      kind: 'network',
      message: `Could not reach the API (${err.message}). Check your connection or the base URL in Settings.`,
    };
  }
  if (err instanceof Anthropic.APIError) {
    const status = err.status;
    const apiType = apiErrorType(err);
    const detail = apiErrorMessage(err);
    const code = codeOf(status);
    if (status === 401 || status === 403 || apiType === 'authentication_error') {
      return {
        kind: 'auth',
        status,
        apiType,
        message: `The API rejected the key${code}: ${detail}. Open Settings to check your API key.`,
      };
    }
    if (status === 429 || apiType === 'rate_limit_error')
      return { kind: 'rate_limit', status, apiType, message: `Rate limited${code}: ${detail}` };
    if (status === 529 || apiType === 'overloaded_error') {
      return { kind: 'overloaded', status, apiType, message: `The API is overloaded${code}: ${detail}` };
    }
    if ((status !== undefined && status >= 500) || apiType === 'api_error') {
      return { kind: 'server', status, apiType, message: `The API failed${code}: ${detail}` };
    }
    if (
      status === 400 ||
      status === 404 ||
      status === 413 ||
      status === 422 ||
      apiType === 'invalid_request_error'
    ) {
      return {
        kind: 'invalid_request',
        status,
        apiType,
        message: `The API refused the request${code}: ${detail}`,
      };
    }
    return { kind: 'unknown', status, apiType, message: `API error${code}: ${detail}` };
  }
  const message = messageOf(err);
  return { kind: 'unknown', message: `Unexpected error: ${message}` };
}

/**
 * A failure of a request whose response had begun (`started`: message_start arrived): marked
 * `midStream`; a failure that is no API error then is the connection breaking (e.g. "terminated",
 * "network error"), so it is a network error. Never throws.
 */
export function classifyStreamError(err: unknown, started: boolean): QueryError {
  const error = classifyApiError(err);
  if (!started || error.kind === 'aborted') return error;
  if (error.kind === 'unknown' && error.status === undefined && error.apiType === undefined) {
    const reason = messageOf(err);
    return {
      kind: 'network',
      midStream: true,
      message: `The connection broke while the reply streamed (${reason}).`,
    };
  }
  return { ...error, midStream: true };
}

/**
 * Whether a request that failed this way may simply be sent again: it stopped partway for a passing
 * reason (overloaded, a server error, the connection, or a rate limit the API announced in the stream:
 * the SDK retries each of these when it comes as the response's status, so the loop does the same).
 */
export function isRetryableStreamError(error: QueryError): boolean {
  return (
    error.midStream === true &&
    (error.kind === 'overloaded' ||
      error.kind === 'server' ||
      error.kind === 'network' ||
      error.kind === 'rate_limit')
  );
}
