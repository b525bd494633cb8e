/** Error bodies in the real API's shape: `{type: 'error', error: {type, message}, request_id}`. */
import type { Fault } from './types.ts';

/** The JSON body of an error response. */
export interface ErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/** An error to answer with: HTTP status, error type, message, and extra response headers. */
export interface ApiError {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

/** Builds the error body for `err`, tagged with `requestId`. */
export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return { type: 'error', error: { type: err.type, message: err.message }, request_id: requestId };
}

/** 400 `invalid_request_error`. */
export const invalidRequest = (message: string): ApiError => ({
  status: 400,
  type: 'invalid_request_error',
  message,
});

/** 401 `authentication_error`. */
export const authError = (message: string): ApiError => ({
  status: 401,
  type: 'authentication_error',
  message,
});

/** 404 `not_found_error`. */
export const notFound = (message = 'Not found'): ApiError => ({
  status: 404,
  type: 'not_found_error',
  message,
});

/**
 * The HTTP error of a fault that fails before any byte of the answer, or null for faults that happen
 * inside a 200 stream or never answer (`cut_stream`, `stream_error`, `hang`, `malformed`).
 */
export function faultError(fault: Fault): ApiError | null {
  switch (fault.kind) {
    case 'rate_limit': {
      const sec = fault.retryAfterSec ?? 0;
      return {
        status: 429,
        type: 'rate_limit_error',
        message: 'Number of request tokens has exceeded your per-minute rate limit',
        headers: { 'retry-after': String(sec), 'retry-after-ms': String(sec > 0 ? sec * 1000 : 20) },
      };
    }
    case 'server_error':
      return withRetryMs(
        { status: 500, type: 'api_error', message: 'Internal server error' },
        fault.retryAfterMs,
      );
    case 'overloaded':
      return withRetryMs(
        { status: 529, type: 'overloaded_error', message: 'Overloaded' },
        fault.retryAfterMs,
      );
    case 'http':
      return { status: fault.status, type: fault.type, message: fault.message };
    case 'cut_stream':
    case 'stream_error':
    case 'hang':
    case 'malformed':
      return null;
  }
}

function withRetryMs(err: ApiError, ms: number | undefined): ApiError {
  return ms === undefined ? err : { ...err, headers: { 'retry-after-ms': String(ms) } };
}
