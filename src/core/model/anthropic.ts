/**
 * The model client: the real @anthropic-ai/sdk, configured for the browser. The SDK keeps its own
 * retries on 429/5xx (with retry-after); failures that remain become QueryErrors for the page.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { QueryError } from '../events.ts';

export interface ModelClientSettings {
  apiKey: string;
  /** Default https://api.anthropic.com; the dev proxy is `${origin}/api/anthropic`. */
  baseURL?: string;
  maxRetries?: number;
  /** Per-request timeout, ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

export function createAnthropicClient(settings: ModelClientSettings): Anthropic {
  return new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL || DEFAULT_BASE_URL,
    dangerouslyAllowBrowser: true,
    maxRetries: settings.maxRetries ?? 2,
    timeout: settings.timeoutMs ?? 10 * 60_000,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
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

/** Turns anything the SDK throws into a QueryError with a plain message. Never throws. */
export function classifyApiError(err: unknown): QueryError {
  if (err instanceof Anthropic.APIUserAbortError) return { kind: 'aborted', message: 'Request aborted.' };
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
    if (status === 401 || status === 403) {
      return {
        kind: 'auth',
        status,
        apiType,
        message: `The API rejected the key (${status}): ${detail}. Open Settings to check your API key.`,
      };
    }
    if (status === 429)
      return { kind: 'rate_limit', status, apiType, message: `Rate limited (429): ${detail}` };
    if (status === 529 || apiType === 'overloaded_error') {
      return { kind: 'overloaded', status, apiType, message: `The API is overloaded (${status}): ${detail}` };
    }
    if (status !== undefined && status >= 500) {
      return { kind: 'server', status, apiType, message: `The API failed (${status}): ${detail}` };
    }
    if (status === 400 || status === 404 || status === 413 || status === 422) {
      return {
        kind: 'invalid_request',
        status,
        apiType,
        message: `The API refused the request (${status}): ${detail}`,
      };
    }
    return {
      kind: 'unknown',
      status,
      apiType,
      message: `API error${status ? ` (${status})` : ''}: ${detail}`,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'unknown', message: `Unexpected error: ${message}` };
}
