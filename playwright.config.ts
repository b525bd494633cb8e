import { defineConfig } from '@playwright/test';

/** Port of `vite preview` for the e2e run (override when another run holds 4173). */
const PORT = Number(process.env.E2E_PORT ?? 4173);
/** Build served by the e2e run (`vite build --outDir X`); several runs at once each use their own. */
const DIST = process.env.E2E_DIST ?? 'dist';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  outputDir: process.env.E2E_OUTPUT ?? 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: 'only-on-failure',
    // A failed test keeps its trace (actions, console, network, sources) without DOM snapshots or a
    // screencast: recording those for every test starved CPU-heavy pages (Pyodide's compile: the CSP test
    // ran 2.0 min traced, 33 s without them, on this 2-core machine). Screenshots on failure stay.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } }],
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --outDir ${DIST}`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
