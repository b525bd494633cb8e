/**
 * Where Grep's regex runs. In a browser: in a Worker (match.worker.ts), so no pattern can block the
 * page; each file gets GREP_FILE_TIME_BUDGET_MS, and a file that takes longer, or an abort (Esc), ends
 * the worker at once (a new one starts for the next file). Without Worker (Node, tests): in-process,
 * with no budget.
 */
import { matchingLines, splitLines } from './search.ts';

/** How long Grep's regex may run on one file before that file is skipped (catastrophic backtracking). */
export const GREP_FILE_TIME_BUDGET_MS = 2_000;

/** One file to match, page → worker. */
export interface MatchRequest {
  id: number;
  source: string;
  flags: string;
  multiline: boolean;
  text: string;
}

/** The answer, worker → page (`ready` once, when the worker has loaded). */
export type MatchReply = { id: number; matched: number[] } | { id: number; error: string } | { ready: true };

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

/** A LineMatcher for `regex`: in a Worker where the platform has one, else in-process. */
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
  let worker: { worker: Worker; ready: boolean } | undefined;
  let nextId = 0;
  const end = () => {
    worker?.worker.terminate();
    worker = undefined;
  };
  return {
    match(text, signal) {
      signal.throwIfAborted();
      worker ??= {
        worker: new Worker(new URL('./match.worker.ts', import.meta.url), { type: 'module', name: 'grep' }),
        ready: false,
      };
      const current = worker;
      const running = current.worker;
      const id = ++nextId;
      return new Promise<number[] | 'timeout'>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          running.removeEventListener('message', onMessage);
          running.removeEventListener('error', onError);
        };
        const startBudget = () => {
          timer = setTimeout(() => {
            done();
            end();
            resolve('timeout');
          }, budgetMs);
        };
        const onMessage = (e: MessageEvent<MatchReply>) => {
          if ('ready' in e.data) {
            current.ready = true;
            startBudget();
            return;
          }
          if (e.data.id !== id) return;
          done();
          if ('error' in e.data) reject(new Error(e.data.error));
          else resolve(e.data.matched);
        };
        const onError = (e: ErrorEvent) => {
          done();
          end();
          reject(new Error(`Grep's search worker failed: ${e.message || 'it could not start'}`));
        };
        const onAbort = () => {
          done();
          end();
          reject(signal.reason);
        };
        if (current.ready) startBudget();
        signal.addEventListener('abort', onAbort, { once: true });
        running.addEventListener('message', onMessage);
        running.addEventListener('error', onError);
        running.postMessage({
          id,
          source: regex.source,
          flags: regex.flags,
          multiline,
          text,
        } satisfies MatchRequest);
      });
    },
    close: end,
  };
}
