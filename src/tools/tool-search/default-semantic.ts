/**
 * The semantic stage the app uses: one Worker per page, made on first use. Outside a page (Node: tests,
 * benchmarks) there is none, and ToolSearch ranks lexically unless it is given a stage.
 */
import { storageName } from '../../core/storage-namespace.ts';
import type { SemanticStage } from './semantic.ts';
import { createWorkerSemanticStage } from './semantic-stage.ts';
import { createWorkerSentenceStage, type SentenceStage } from './sentence-stage.ts';

let stage: SemanticStage | undefined;
let sentence: SentenceStage | undefined;

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
