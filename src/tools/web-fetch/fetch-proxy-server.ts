/**
 * The fetch proxy as a server of its own, for a user who runs tabcode from a static host (no dev server,
 * so no `/api/fetch` on its origin) and wants WebFetch to read sites without CORS headers: run it, then
 * put its URL in Settings → WebFetch proxy.
 *
 *   npx tsx src/tools/web-fetch/fetch-proxy-server.ts --allow-origin https://tabcode.example [--port 8787]
 *
 * It answers only the page origins it is given (CORS, see fetch-proxy-plugin.ts) and listens on
 * loopback unless told otherwise. Node only; never part of a build.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { DEV_PROXY_PATH } from './fetch-page.ts';
import { type FetchProxyOptions, handleFetchProxy } from './fetch-proxy-plugin.ts';

/** Where the standalone proxy listens by default: loopback only (it fetches the web for whoever asks). */
export const FETCH_PROXY_DEFAULT_HOST = '127.0.0.1';
export const FETCH_PROXY_DEFAULT_PORT = 8787;

export interface FetchProxyServer {
  /** The URL to put in Settings → WebFetch proxy (`http://host:port/api/fetch`). */
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy (port 0: a free one). Rejects when the port cannot be taken. */
export function startFetchProxy(
  options: FetchProxyOptions & { port?: number; host?: string } = {},
): Promise<FetchProxyServer> {
  const { port = FETCH_PROXY_DEFAULT_PORT, host = FETCH_PROXY_DEFAULT_HOST, ...proxy } = options;
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== DEV_PROXY_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`The fetch proxy is at ${DEV_PROXY_PATH}.`);
      return;
    }
    void handleFetchProxy(req, res, proxy);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${bound}${DEV_PROXY_PATH}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function cli(argv: readonly string[]): void {
  const values = (flag: string) => argv.flatMap((a, i) => (a === flag && argv[i + 1] ? [argv[i + 1]] : []));
  const allowOrigins = values('--allow-origin');
  if (allowOrigins.length === 0) {
    console.error(
      'Give the origin of the page that runs tabcode: --allow-origin https://tabcode.example (repeat for more).',
    );
    process.exit(2);
  }
  const port = Number(values('--port')[0] ?? FETCH_PROXY_DEFAULT_PORT);
  startFetchProxy({ port, host: values('--host')[0], allowOrigins }).then(
    (server) => console.log(`WebFetch proxy for ${allowOrigins.join(', ')}: ${server.url}`),
    (err: Error) => {
      console.error(`The fetch proxy could not start: ${err.message}`);
      process.exit(1);
    },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) cli(process.argv.slice(2));
