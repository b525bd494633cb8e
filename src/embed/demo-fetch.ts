/**
 * The scripted demo (`config.demo`): the hand-written form of a replay. Each model request takes the next
 * scripted turn; once none is left the answer is `endText`. It plays through the replay player
 * (replay-player.ts), so the real SDK, loop and tools run unchanged, no request leaves the page and no
 * key is needed.
 */
import { type EmbedDemo, type EmbedReplay, REPLAY_FORMAT, REPLAY_VERSION } from './config.ts';
import { createReplayPlayer } from './replay-player.ts';

export { DEMO_CHUNK_DELAY_MS, DEMO_END_TEXT, DEMO_MODEL } from './replay-player.ts';

export interface DemoFetchState {
  /** Scripted turns not played yet. */
  pending(): number;
}

/** The replay a scripted demo stands for: one turn whose answers are the script's turns. */
export function demoToReplay(demo: EmbedDemo): EmbedReplay {
  return {
    format: REPLAY_FORMAT,
    version: REPLAY_VERSION,
    turns:
      demo.turns.length > 0
        ? [
            {
              responses: demo.turns.map((t) => ({
                content: t.content,
                ...(demo.chunkDelayMs !== undefined ? { chunkDelayMs: demo.chunkDelayMs } : {}),
              })),
            },
          ]
        : [],
    ...(demo.endText !== undefined ? { endText: demo.endText } : {}),
  };
}

/** Creates the fetch; `state` (optional) is filled with a view of the script's progress. */
export function createDemoFetch(demo: EmbedDemo, state?: { current?: DemoFetchState }): typeof fetch {
  const player = createReplayPlayer(demoToReplay(demo));
  if (state) state.current = { pending: () => player.pending() };
  return player.fetch;
}
