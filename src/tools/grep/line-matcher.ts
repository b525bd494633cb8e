/**
 * Where Grep's regex runs. In a browser: in a Worker (match.worker.ts), so no pattern can block the
 * page; each file gets GREP_FILE_TIME_BUDGET_MS, and a file that takes longer, or an abort (Esc), ends
 * the worker at once (a new one starts for the next file). Without Worker (Node, tests): in-process,
 * with no budget.
 */
import { createWorkerTasks, type TaskReply, type TaskRequest } from '../../core/worker-tasks.ts';
import { matchingLines, splitLines } from './search.ts';

/** How long Grep's regex may run on one file before that file is skipped (catastrophic backtracking). */
export const GREP_FILE_TIME_BUDGET_MS = 2_000;

/** One file to match. */
export interface MatchJob {
  source: string;
  flags: string;
  multiline: boolean;
  text: string;
}
/** Page → worker. */
export type MatchRequest = TaskRequest<MatchJob>;
/** Worker → page: `ready` once loaded, then the 0-based indexes of the matching lines. */
export type MatchReply = TaskReply<number[]>;

/** Matches files' lines against one regex. */
export interface LineMatcher {
  /**
   * 0-based indexes of the lines of `text` that match, or 'timeout' when the file took longer than the
   * budget. Rejects with `signal.reason` once `signal` aborts (the worker is ended at once).
   */
  match(text: string, signal: AbortSignal): Promise<number[] | 'timeout'>;
  /** Ends the worker, if any. Never throws. */
  close(): void;
}

/** A LineMatcher for `regex`: in a Worker where the platform has one (../../core/worker-tasks.ts), else in-process. */
export function createLineMatcher(
  regex: RegExp,
  multiline: boolean,
  budgetMs: number = GREP_FILE_TIME_BUDGET_MS,
): LineMatcher {
  if (typeof Worker === 'undefined') {
    return {
      match: async (text, signal) => {
        signal.throwIfAborted();
        return matchingLines(text, splitLines(text), regex, multiline);
      },
      close: () => {},
    };
  }
  const tasks = createWorkerTasks<MatchJob, number[]>({
    spawn: () => new Worker(new URL('./match.worker.ts', import.meta.url), { type: 'module', name: 'grep' }),
    budgetMs,
    name: "Grep's search worker",
  });
  return {
    async match(text, signal) {
      const outcome = await tasks.run(
        { source: regex.source, flags: regex.flags, multiline, text },
        { signal },
      );
      if (outcome.ok) return outcome.value;
      if (outcome.reason === 'timeout') return 'timeout';
      throw new Error(outcome.message);
    },
    close: () => tasks.close(),
  };
}
