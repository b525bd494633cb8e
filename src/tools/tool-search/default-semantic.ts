/**
 * The semantic stage the app uses: one Worker per page, made on first use. Outside a page (Node: tests,
 * benchmarks) there is none, and ToolSearch ranks lexically unless it is given a stage.
 */
import { storageName } from '../../core/storage-namespace.ts';
import { createGlossaryStage, type GlossaryStage } from './glossary-stage.ts';
import type { SemanticStage } from './semantic.ts';
import { createWorkerSemanticStage } from './semantic-stage.ts';
import { createWorkerSentenceStage, type SentenceStage } from './sentence-stage.ts';

let stage: SemanticStage | undefined;
let sentence: SentenceStage | undefined;
let glossary: GlossaryStage | undefined;

/** The page's semantic stage, or undefined where Workers do not exist. Never throws. */
export function defaultSemanticStage(): SemanticStage | undefined {
  if (stage) return stage;
  if (typeof Worker === 'undefined' || typeof window === 'undefined') return undefined;
  stage = createWorkerSemanticStage(
    () =>
      new Worker(new URL('./semantic-worker.ts', import.meta.url), {
        type: 'module',
        name: 'tool-search-semantic',
      }),
  );
  return stage;
}

/**
 * The page's sentence encoder (./sentence-stage.ts), in its own Worker made on first use; undefined where
 * Workers do not exist. Its tool vectors are kept in IndexedDB database `<namespace>-tool-vectors`.
 */
export function defaultSentenceStage(): SentenceStage | undefined {
  if (sentence) return sentence;
  if (typeof Worker === 'undefined' || typeof window === 'undefined') return undefined;
  sentence = createWorkerSentenceStage(
    () =>
      new Worker(new URL('./sentence-worker.ts', import.meta.url), {
        type: 'module',
        name: 'tool-search-sentence',
      }),
    storageName('tool-vectors'),
  );
  return sentence;
}

/**
 * The page's Chinese-English glossary (./glossary-stage.ts): its table is fetched and unzipped by a
 * short-lived Worker on first need; undefined where Workers do not exist.
 */
export function defaultGlossaryStage(): GlossaryStage | undefined {
  if (glossary) return glossary;
  if (typeof Worker === 'undefined' || typeof window === 'undefined') return undefined;
  glossary = createGlossaryStage(
    () =>
      new Promise<Uint8Array>((resolve, reject) => {
        const worker = new Worker(new URL('./glossary-worker.ts', import.meta.url), {
          type: 'module',
          name: 'tool-search-glossary',
        });
        const done = () => worker.terminate();
        worker.onmessage = (e: MessageEvent<{ bytes?: Uint8Array; error?: string }>) => {
          done();
          if (e.data.bytes) resolve(e.data.bytes);
          else reject(new Error(e.data.error ?? 'the glossary worker sent nothing'));
        };
        worker.onerror = (e) => {
          done();
          reject(new Error(e.message || 'the glossary worker failed to start'));
        };
        worker.postMessage('load');
      }),
  );
  return glossary;
}
