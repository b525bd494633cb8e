/**
 * What the benchmarks that drive the app in Chromium share: a production build of the app in a
 * temporary folder, served by `vite preview` (the project's config: COOP/COEP on), and the Chromium
 * they drive it with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

export interface PreviewedBuild {
  /** The temporary folder (the build is in its `dist`); removed by `close`. */
  work: string;
  outDir: string;
  /** The preview server's origin, e.g. `http://localhost:4391`. */
  base: string;
  /** Stops the server and removes the temporary folder. Never rejects. */
  close(): Promise<void>;
}

/**
 * Builds the app from `root` (`input`: the build's entries, default the project config's) into a new
 * temporary folder and serves it on `port` (strictly: a port in use fails).
 */
export async function buildAndPreview(
  root: string,
  port: number,
  input?: Record<string, string>,
): Promise<PreviewedBuild> {
  const work = mkdtempSync(join(tmpdir(), 'tabcode-bench-'));
  const outDir = join(work, 'dist');
  const configFile = resolve(root, 'vite.config.ts');
  // The bench runner's Vite dev server set NODE_ENV=development; a build must not inherit it (React's
  // development build would be measured).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let server: Awaited<ReturnType<typeof preview>>;
  try {
    await build({
      root,
      configFile,
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, ...(input ? { rolldownOptions: { input } } : {}) },
    });
    server = await preview({
      root,
      configFile,
      logLevel: 'error',
      build: { outDir },
      preview: { port, strictPort: true },
    });
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return {
    work,
    outDir,
    base: `http://localhost:${port}`,
    async close() {
      await new Promise<void>((r) => server.httpServer.close(() => r()));
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The machine's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with the tests' flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}
