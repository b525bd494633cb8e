/** Plain-text formatting for the page: error messages, durations, paths. */
import type { QueryError } from '../core/events.ts';

export interface ErrorText {
  /** One readable sentence. */
  text: string;
  /** The API's own message, when it adds something. */
  detail?: string;
  /** Whether Settings is where the user fixes it. */
  offerSettings: boolean;
}

export function describeError(error: QueryError): ErrorText {
  const status = error.status;
  const code = status ? ` (${status})` : '';
  const detail = apiDetail(error);
  switch (error.kind) {
    case 'auth':
      return {
        text: `The API rejected the key${code || ' (401)'}. Open Settings to fix it.`,
        detail,
        offerSettings: true,
      };
    case 'rate_limit':
      return {
        text: `The API is rate limiting requests${code}. Wait a moment, then try again.`,
        detail,
        offerSettings: false,
      };
    case 'overloaded':
      return { text: `The API is overloaded${code}. Try again in a moment.`, detail, offerSettings: false };
    case 'server':
      return { text: `The API had an internal error${code}. Try again.`, detail, offerSettings: false };
    case 'invalid_request':
      return { text: `The API rejected the request${code}.`, detail, offerSettings: false };
    case 'network':
      return {
        text: 'Could not reach the API. Check the base URL in Settings and your connection.',
        detail,
        offerSettings: true,
      };
    case 'aborted':
      return { text: 'The request was stopped.', offerSettings: false };
    default:
      return { text: `Something went wrong${code}.`, detail, offerSettings: false };
  }
}

/**
 * The API's own words from an error message, without the sentence the page already shows
 * ("… (401): invalid x-api-key. Open Settings …" → "authentication_error: invalid x-api-key").
 */
function apiDetail(error: QueryError): string | undefined {
  const message = error.message.trim();
  if (!message) return undefined;
  let detail = message;
  const afterStatus = /\(\d{3}\):\s*([\s\S]+)$/.exec(message)?.[1];
  const inParens = /^Could not reach the API \(([\s\S]+?)\)\./.exec(message)?.[1];
  if (afterStatus) detail = afterStatus.replace(/\.?\s*Open Settings[\s\S]*$/, '');
  else if (inParens) detail = inParens;
  detail = detail.trim();
  if (!detail) return undefined;
  return error.apiType && !detail.startsWith(error.apiType) ? `${error.apiType}: ${detail}` : detail;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} m ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `abs` relative to `root`, or `abs` itself when it is outside. */
export function relativePath(root: string, abs: string): string {
  const r = root.endsWith('/') ? root.slice(0, -1) : root;
  return abs.startsWith(`${r}/`) ? abs.slice(r.length + 1) : abs;
}
