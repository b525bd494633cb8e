/**
 * The sentence encoder (Universal Sentence Encoder lite) in a module worker, loaded as the product loads
 * it (../../src/tools/tool-search/encoder-browser.ts: every file from our own origin). Measures the load,
 * a query embedding (short and long) and a tool embedding (batches of 32); posts the figures.
 */
import { loadBrowserEncoder, tf } from '../../src/tools/tool-search/encoder-browser.ts';
import type { SentenceEncoder } from '../../src/tools/tool-search/sentence-stage.ts';

const scope = self as unknown as { postMessage(m: Record<string, number | string>): void };

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};

async function timed(model: SentenceEncoder, texts: string[], rounds: number): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const t of texts) {
      const t0 = performance.now();
      await model.embed([`${t} ${r}`]);
      out.push(performance.now() - t0);
    }
  return out;
}

(async () => {
  try {
    const t0 = performance.now();
    const model = await loadBrowserEncoder();
    const { bytes } = model;
    const loadMs = performance.now() - t0;
    await model.embed(['warm up']);
    const short = await timed(
      model,
      [
        'convert kroner to euro',
        'find the weather tomorrow in Paris',
        'delete the old repository',
        'list my calendar events',
      ],
      10,
    );
    const long = await timed(
      model,
      [
        'I am preparing an investment analysis on Nvidia. Get the latest stock price, the company news of this week, and draft a short Markdown summary of both that I can save as nvidia.md in my project folder.',
      ],
      10,
    );
    const tools = Array.from(
      { length: 64 },
      (_, i) =>
        `read file ${i}: Reads a file from the workspace and returns its text with line numbers; large files are read in pages of 2,000 lines.`,
    );
    const t1 = performance.now();
    for (let i = 0; i < tools.length; i += 32) await model.embed(tools.slice(i, i + 32));
    const perTool = (performance.now() - t1) / tools.length;
    scope.postMessage({
      backend: tf.getBackend(),
      simd: String(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')),
      threads: String(await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')),
      weightBytes: bytes,
      loadMs,
      shortP50: percentile(short, 0.5),
      shortP95: percentile(short, 0.95),
      longP50: percentile(long, 0.5),
      longP95: percentile(long, 0.95),
      perTool,
    });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) });
  }
})();
