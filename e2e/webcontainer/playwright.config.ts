/**
 * `npm run test:webcontainer`: the sandbox contract (and a Node.js smoke test) in Chromium against the
 * real WebContainer, on the harness page served by Vite's dev server (COOP/COEP on). Where StackBlitz's
 * runtime cannot be reached it says so and skips (exit 0).
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config.ts';

const PORT = Number(process.env.WC_PORT ?? 4180);

export default defineConfig({
  testDir: '.',
  testMatch: '*.wc.ts',
  outputDir: resolve(import.meta.dirname, '../../test-results/webcontainer'),
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 300_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // The real WebContainer needs the network: no --disable-background-networking-only flags matter here.
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `npx vite --port ${PORT} --strictPort`,
    cwd: resolve(import.meta.dirname, '../..'),
    url: `http://localhost:${PORT}/e2e/webcontainer/harness.html`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
