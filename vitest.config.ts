import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { featureDefines } from './src/core/features.ts';

export default defineConfig({
  define: { ...featureDefines('test', process.env), __TABCODE_DEV_PROXY__: 'false' },
  test: {
    include: ['src/**/*.test.ts', 'e2e/mock-api/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['fake-indexeddb/auto'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker less than the cores: on CI's 2 cores, one file at a time, with the
    // second core idle while files wait on timers, child processes and builds. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
