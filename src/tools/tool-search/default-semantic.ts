/**
 * The semantic stage the app uses: one Worker per page, made on first use. Outside a page (Node: tests,
 * benchmarks) there is none, and ToolSearch ranks lexically unless it is given a stage.
 */
import type { SemanticStage } from './semantic.ts';
import { createWorkerSemanticStage } from './semantic-stage.ts';

let stage: SemanticStage | undefined;

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
