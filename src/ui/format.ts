/** Plain-text formatting for the page: error messages, durations, paths. */
import type { QueryError } from '../core/events.ts';

export interface ErrorText {
  /** What happened and what to do, in one or two plain sentences. */
  text: string;
  /** Whether anything ran (so the user knows what to check before sending again). */
  ran?: string;
  /** The API's own message, when it adds something. */
  detail?: string;
  /** Whether Settings is where the user fixes it. */
  offerSettings: boolean;
}

/** What ran when a request failed: nothing of its reply; calls before it in the turn show their own cards. */
const NOTHING_RAN = 'Nothing from this reply ran; tool calls made before it in this turn kept their results.';
const CUT_REPLY =
  'Nothing from the unfinished reply ran, and its partial text is marked as not kept (the model will not see it).';

export function describeError(error: QueryError): ErrorText {
  const status = error.status;
  const code = status ? ` (${status})` : '';
  const detail = apiDetail(error);
  const ran = error.midStream ? CUT_REPLY : NOTHING_RAN;
  switch (error.kind) {
    case 'auth':
      return {
        text: `The API rejected the key${code || ' (401)'}. Open Settings to fix it.`,
        ran: 'Nothing was sent to the model and nothing ran.',
        detail,
        offerSettings: true,
      };
    case 'rate_limit':
      return {
        text: `The API is rate limiting requests${code} and the automatic retries ran out. Wait a minute, then send your message again.`,
        ran,
        detail,
        offerSettings: false,
      };
    case 'overloaded':
      return {
        text: error.midStream
          ? 'The API became overloaded while it was answering, and the retries ran out. Send your message again in a moment.'
          : `The API is overloaded${code} and the automatic retries ran out. Send your message again in a moment.`,
        ran,
        detail,
        offerSettings: false,
      };
    case 'server':
      return {
        text: error.midStream
          ? 'The API failed while it was answering, and the retries ran out. Send your message again.'
          : `The API had an internal error${code} and the automatic retries ran out. Send your message again.`,
        ran,
        detail,
        offerSettings: false,
      };
    case 'invalid_request':
      if (status === 404)
        return {
          text: 'The API answered 404 Not Found: the base URL in Settings may point to the wrong place (it is the address before /v1/messages). Its answer is below.',
          ran: 'Nothing was run.',
          detail,
          offerSettings: true,
        };
      return {
        text: `The API refused the request${code}. Its reason is below; sending the same conversation again will fail the same way, so change the prompt or start a new session.`,
        ran: 'Nothing was run.',
        detail,
        offerSettings: false,
      };
    case 'network':
      return error.midStream
        ? {
            text: 'The connection to the API broke while the reply was streaming, and the retries ran out. Check your connection, then send your message again.',
            ran,
            detail,
            offerSettings: false,
          }
        : {
            text: 'Could not reach the API. Check the base URL in Settings and your connection.',
            ran: 'Nothing was sent to the model and nothing ran.',
            detail,
            offerSettings: true,
          };
    case 'aborted':
      return { text: 'The request was stopped.', offerSettings: false };
    default:
      return {
        text: `The request failed unexpectedly${code}. Send your message again; if it keeps failing, start a new session.`,
        ran,
        detail,
        offerSettings: false,
      };
  }
}

/** The countdown line of a retry being waited out ("Retrying in 3 s (retry 1 of 2)."). */
export function describeRetry(error: QueryError, secondsLeft: number, attempt: number, max: number): string {
  const what =
    error.kind === 'rate_limit'
      ? `The API is rate limiting requests${error.status ? ` (${error.status})` : ''}.`
      : error.kind === 'overloaded'
        ? error.midStream
          ? 'The API became overloaded while answering; the partial reply is not kept.'
          : `The API is overloaded${error.status ? ` (${error.status})` : ''}.`
        : error.kind === 'network'
          ? error.midStream
            ? 'The connection broke while the reply streamed; the partial reply is not kept.'
            : 'The API could not be reached.'
          : `The API failed${error.status ? ` (${error.status})` : ''}${error.midStream ? ' while answering' : ''}.`;
  const when = secondsLeft > 0 ? `in ${secondsLeft} s` : 'now';
  return `${what} Retrying ${when} (retry ${attempt} of ${max}); nothing needs doing.`;
}

/**
 * The API's own words from an error message, without the sentence the page already shows
 * ("… (401): invalid x-api-key. Open Settings …" → "authentication_error: invalid x-api-key").
 */
function apiDetail(error: QueryError): string | undefined {
  const message = error.message.trim();
  if (!message) return undefined;
  let detail = message;
  // "… (401): words" or "…: words" (an error from the stream has no status).
  const afterStatus = /^[^:(]*(?:\(\d{3}\))?:\s*([\s\S]+)$/.exec(message)?.[1];
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
