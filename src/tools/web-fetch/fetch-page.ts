/**
 * Fetching a page from the page (a browser tab cannot read most sites: CORS): through a fetch proxy
 * (the user's, or the dev server's `/api/fetch` on our own origin), else directly where the site allows
 * it (CORS). Bodies are capped; every failure becomes a message the model can act on. The protocol of
 * the proxy is in fetch-proxy-plugin.ts: `GET <proxy>?url=<url>` with the `x-tabcode-fetch` header,
 * answered with the upstream body and `x-tabcode-*` headers.
 */

import { messageOf } from '../../core/errors.ts';
import { ToolInputError } from '../../core/tool.ts';

/** Most bytes of one page read. */
export const WEB_FETCH_MAX_BYTES = 5_000_000;
/** A fetch that takes longer is stopped. */
export const WEB_FETCH_TIMEOUT_MS = 30_000;
/** The header a request to the proxy carries (a cross-origin page cannot send it without a preflight). */
export const PROXY_REQUEST_HEADER = 'x-tabcode-fetch';
/** The header the proxy answers with, so a page knows it reached one. */
export const PROXY_RESPONSE_HEADER = 'x-tabcode-fetch-proxy';
/** The path of the dev server's proxy. */
export const DEV_PROXY_PATH = '/api/fetch';

export interface FetchedPage {
  url: string;
  finalUrl: string;
  status: number;
  statusText: string;
  contentType: string;
  body: string;
  bytes: number;
  /** The body was longer than WEB_FETCH_MAX_BYTES and was cut. */
  truncated: boolean;
  /** A redirect to another host, not followed. */
  redirectTo?: string;
  via: 'proxy' | 'direct';
}

/** The answer was not from a tabcode fetch proxy (a static host, a dev server without it). */
export class NotAProxy extends Error {}

/** The proxy answered and refused the URL (private address, upstream failure): final, no fallback. */
export class ProxyRefused extends ToolInputError {}

/** Reads at most `max` bytes of a body. */
async function readCapped(
  response: Response,
  max: number,
): Promise<{ text: string; bytes: number; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', bytes: 0, truncated: false };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.length > max) {
      chunks.push(value.subarray(0, max - bytes));
      bytes = max;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    bytes += value.length;
  }
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return { text: new TextDecoder().decode(all), bytes, truncated };
}

function withTimeout(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)]);
}

function failure(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError')
    return `it took longer than ${WEB_FETCH_TIMEOUT_MS / 1000} s`;
  return messageOf(err);
}

/**
 * Fetches `url` through the proxy at `proxy`. Throws NotAProxy when the answer is not a proxy's,
 * ToolInputError when the proxy cannot be reached or refuses; an abort rejects with the abort.
 */
export async function fetchThroughProxy(
  proxy: string,
  url: URL,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const target = `${proxy}${proxy.includes('?') ? '&' : '?'}url=${encodeURIComponent(url.href)}`;
  let response: Response;
  try {
    response = await fetchImpl(target, {
      headers: { [PROXY_REQUEST_HEADER]: '1' },
      credentials: 'omit',
      signal: withTimeout(signal),
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ToolInputError(
      `The fetch proxy at ${proxy} could not be reached (${failure(err)}). Check that it runs, or clear the proxy setting to fetch directly.`,
    );
  }
  if (response.headers.get(PROXY_RESPONSE_HEADER) !== '1') {
    await response.body?.cancel().catch(() => {});
    throw new NotAProxy(`${proxy} is not a tabcode fetch proxy (HTTP ${response.status}).`);
  }
  if (!response.ok) {
    const why = await response.text().catch(() => '');
    let message = why;
    try {
      message = (JSON.parse(why) as { error?: string }).error ?? why;
    } catch {}
    throw new ProxyRefused(`The fetch proxy refused ${url.href}: ${message || `HTTP ${response.status}`}`);
  }
  const { text, bytes, truncated } = await readCapped(response, WEB_FETCH_MAX_BYTES);
  const status = Number(response.headers.get('x-tabcode-status') ?? 200);
  return {
    url: url.href,
    finalUrl: response.headers.get('x-tabcode-final-url') ?? url.href,
    status,
    statusText: response.headers.get('x-tabcode-status-text') ?? '',
    contentType: response.headers.get('content-type') ?? '',
    body: text,
    bytes,
    truncated: truncated || response.headers.get('x-tabcode-truncated') === '1',
    ...(response.headers.get('x-tabcode-redirect')
      ? { redirectTo: response.headers.get('x-tabcode-redirect') as string }
      : {}),
    via: 'proxy',
  };
}

/** Fetches `url` from the page itself (works where the site sends CORS headers). Throws ToolInputError. */
export async function fetchDirect(
  url: URL,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<FetchedPage> {
  let response: Response;
  try {
    response = await fetchImpl(url.href, {
      mode: 'cors',
      credentials: 'omit',
      redirect: 'follow',
      signal: withTimeout(signal),
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ToolInputError(
      `${url.href} could not be fetched from the page (${failure(err)}). Most sites do not let a web page read them (CORS): the user can set a fetch proxy in Settings, or run tabcode's dev server (npm run dev), which has one at ${DEV_PROXY_PATH}.`,
    );
  }
  const { text, bytes, truncated } = await readCapped(response, WEB_FETCH_MAX_BYTES);
  return {
    url: url.href,
    finalUrl: response.url || url.href,
    status: response.status,
    statusText: response.statusText,
    contentType: response.headers.get('content-type') ?? '',
    body: text,
    bytes,
    truncated,
    via: 'direct',
  };
}

/** The dev server's proxy on the page's own origin, when there is a page. */
export function sameOriginProxy(): string | undefined {
  return typeof location !== 'undefined' && /^https?:$/.test(location.protocol)
    ? `${location.origin}${DEV_PROXY_PATH}`
    : undefined;
}
