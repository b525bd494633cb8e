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
  },
});
