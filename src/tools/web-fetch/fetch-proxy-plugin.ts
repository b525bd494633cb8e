/**
 * The dev server's fetch proxy for WebFetch: `GET /api/fetch?url=<url>` (with the `x-tabcode-fetch`
 * header) fetches a public http(s) page on the server and answers with its body, so the page can read
 * sites that send no CORS headers. Served by `vite` (dev) and `vite preview`; never part of a build.
 *
 * It refuses what WebFetch refuses, on the server too: other schemes, private and loopback addresses
 * (checked on the addresses the name resolves to, at connection time, so DNS cannot point it inward),
 * URLs with credentials. Same-host redirects are followed (at most MAX_REDIRECTS); a redirect to another
 * host is reported, not followed (the page's permission rules go by host). Bodies are capped.
 * Answers carry `x-tabcode-fetch-proxy: 1` and the upstream status in `x-tabcode-status`.
 *
 * A proxy the user runs on another origin than the page (Settings → WebFetch proxy) names the pages'
 * origins in `allowOrigins`: it answers their CORS preflight (the `x-tabcode-fetch` header needs one) and
 * lets them read the answer's `x-tabcode-*` headers. Any other origin gets no CORS headers, so a page
 * elsewhere cannot use it; the dev server's proxy (same origin) needs none.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Plugin } from 'vite';
import { messageOf } from '../../core/errors.ts';
import { checkFetchUrl, isPrivateIPv4, isPrivateIPv6 } from './addresses.ts';
import {
  DEV_PROXY_PATH,
  PROXY_REQUEST_HEADER,
  PROXY_RESPONSE_HEADER,
  WEB_FETCH_MAX_BYTES,
  WEB_FETCH_TIMEOUT_MS,
} from './fetch-page.ts';

/** Same-host redirects followed before the proxy gives up. */
export const MAX_REDIRECTS = 5;

export interface FetchProxyOptions {
  /**
   * A hosts file for the proxy: a URL's host (`docs.example`) → the `host:port` to connect to instead,
   * reached even when private. For tests that serve public-looking pages on loopback; never set in the
   * shipped config.
   */
  hosts?: Readonly<Record<string, string>>;
  maxBytes?: number;
  timeoutMs?: number;
  /** Page origins (`https://app.example`) allowed to call this proxy across origins (CORS). Default none. */
  allowOrigins?: readonly string[];
}

/** The answer headers a cross-origin page must be allowed to read (fetch-page.ts reads them all). */
const EXPOSED_HEADERS = [
  PROXY_RESPONSE_HEADER,
  'x-tabcode-status',
  'x-tabcode-status-text',
  'x-tabcode-final-url',
  'x-tabcode-redirect',
  'x-tabcode-truncated',
].join(', ');

/** CORS headers for a request from an allowed origin; none for any other (the browser then blocks it). */
function corsHeaders(req: IncomingMessage, options: FetchProxyOptions): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !options.allowOrigins?.includes(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'origin',
  };
}

type Next = (err?: unknown) => void;

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    [PROXY_RESPONSE_HEADER]: '1',
    ...headers,
  });
  res.end(body);
}

const fail = (res: ServerResponse, status: number, error: string) =>
  send(res, status, JSON.stringify({ error }));

/** A DNS lookup that refuses private addresses (unless the host is allowed). Exported for tests. */
export function guardedLookup(allowed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => (a.family === 6 ? isPrivateIPv6(a.address) : isPrivateIPv4(a.address)));
      if (bad && !allowed) {
        return callback(
          Object.assign(new Error(`${hostname} resolves to a private address (${bad.address})`), {
            code: 'EPRIVATE',
          }),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

interface Upstream {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  response: IncomingMessage;
}

function open(url: URL, mapped: string | undefined, timeoutMs: number): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    // A mapped host is reached over plain HTTP at its mapped address, with its own name in Host.
    const target = mapped ? new URL(`http://${mapped}${url.pathname}${url.search}`) : url;
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      target,
      {
        method: 'GET',
        headers: {
          'user-agent': 'tabcode-webfetch/1 (+dev proxy)',
          accept: 'text/html,text/plain,*/*;q=0.8',
          host: url.host,
        },
        lookup: guardedLookup(mapped !== undefined),
        timeout: timeoutMs,
      },
      (response) =>
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          response,
        }),
    );
    req.on('timeout', () => req.destroy(new Error(`the site took longer than ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Handles one proxy request. Never throws (errors become JSON answers). */
export async function handleFetchProxy(
  req: IncomingMessage,
  res: ServerResponse,
  options: FetchProxyOptions = {},
): Promise<void> {
  const cors = corsHeaders(req, options);
  if (req.method === 'OPTIONS' && cors['access-control-allow-origin']) {
    res.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': PROXY_REQUEST_HEADER,
      'access-control-max-age': '600',
    });
    return void res.end();
  }
  // Every answer below carries the CORS headers (none for an origin that is not allowed).
  for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
  if (req.method !== 'GET') return fail(res, 405, 'The fetch proxy takes GET requests only.');
  if (req.headers[PROXY_REQUEST_HEADER] !== '1') {
    return fail(res, 400, `Requests to the fetch proxy must carry the ${PROXY_REQUEST_HEADER}: 1 header.`);
  }
  const raw = new URL(req.url ?? '/', 'http://proxy').searchParams.get('url');
  if (!raw) return fail(res, 400, 'Give the page to fetch as ?url=<http or https URL>.');
  const hosts = options.hosts ?? {};
  const checked = checkFetchUrl(raw);
  if (!checked.ok) return fail(res, 403, checked.reason);
  let url = checked.url;
  const maxBytes = options.maxBytes ?? WEB_FETCH_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? WEB_FETCH_TIMEOUT_MS;
  try {
    let upstream = await open(url, hosts[url.host], timeoutMs);
    for (let hops = 0; upstream.status >= 300 && upstream.status < 400 && upstream.headers.location; hops++) {
      upstream.response.resume();
      const next = new URL(upstream.headers.location, url);
      if (next.host !== url.host || hops >= MAX_REDIRECTS) {
        return send(res, 200, '', {
          'x-tabcode-status': String(upstream.status),
          'x-tabcode-status-text': upstream.statusText,
          'x-tabcode-final-url': url.href,
          'x-tabcode-redirect': next.href,
        });
      }
      if (!/^https?:$/.test(next.protocol))
        return fail(res, 502, `${url.href} redirects to a ${next.protocol} URL.`);
      url = next;
      upstream = await open(url, hosts[url.host], timeoutMs);
    }
    const headers: Record<string, string> = {
      'content-type': String(upstream.headers['content-type'] ?? 'application/octet-stream'),
      'cache-control': 'no-store',
      'x-tabcode-status': String(upstream.status),
      'x-tabcode-status-text': upstream.statusText,
      'x-tabcode-final-url': url.href,
      [PROXY_RESPONSE_HEADER]: '1',
    };
    res.writeHead(200, headers);
    let bytes = 0;
    for await (const chunk of upstream.response as AsyncIterable<Buffer>) {
      if (bytes + chunk.length > maxBytes) {
        res.write(chunk.subarray(0, maxBytes - bytes));
        upstream.response.destroy();
        break;
      }
      bytes += chunk.length;
      res.write(chunk);
    }
    res.end();
  } catch (err) {
    const message = messageOf(err);
    if (res.headersSent) return void res.destroy();
    const code = (err as { code?: string }).code;
    return fail(res, code === 'EPRIVATE' ? 403 : 502, `${url.href} could not be fetched: ${message}`);
  }
}

/** The Vite plugin: the proxy at DEV_PROXY_PATH on the dev server and on `vite preview`. */
export function fetchProxyPlugin(options: FetchProxyOptions = {}): Plugin {
  const middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== DEV_PROXY_PATH) return next();
    void handleFetchProxy(req, res, options);
  };
  return {
    name: 'tabcode-fetch-proxy',
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
    },
  };
}
