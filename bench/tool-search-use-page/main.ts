/**
 * The Chromium half of `npx tsx bench/tool-search-use.ts --page`: runs ./worker.ts (the sentence encoder
 * loaded from our own origin in a module worker, as the semantic stage would) and puts its figures in
 * `window.benchResult`.
 */
declare global {
  interface Window {
    benchResult?: Record<string, number | string>;
  }
}

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
worker.onmessage = (e: MessageEvent<Record<string, number | string>>) => {
  window.benchResult = e.data;
};
worker.onerror = (e) => {
  window.benchResult = { error: e.message || 'the worker failed' };
};
