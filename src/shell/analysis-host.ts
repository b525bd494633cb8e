/**
 * Where Bash commands are analysed (./analyze.ts) for the permission decision. In a browser page: in a
 * Worker (./analysis.worker.ts), so neither loading just-bash's parser (a 1.2 MB module: evaluating it
 * alone blocked the page for ~80 ms) nor analysing a long command blocks the page. Without a Worker
 * (Node, tests): in-process, as before.
 *
 * The worker is hosted by ../core/worker-tasks.ts. A worker that cannot start, fails before it loads, or
 * has not loaded its parser within SHELL_ANALYSIS_LOAD_TIMEOUT_MS is given up for the page's lifetime
 * and the analysis runs in-process (it must happen either way; so does a command the worker failed on).
 * A command whose analysis takes longer than SHELL_ANALYSIS_TIMEOUT_MS ends the worker (commands waiting
 * beside it go to a new one) and counts as unparsed, so the rules treat it as any command that cannot be
 * analysed: it is asked about where asking applies, never auto-allowed.
 */
import {
  createWorkerTasks,
  serveWorkerTasks,
  type TaskReply,
  type TaskRequest,
  type TaskWorkerLike,
} from '../core/worker-tasks.ts';
import { analyzeShell, unparsed } from './analyze.ts';
import { loadShellParser } from './parser.ts';
import type { ShellAnalysis } from './types.ts';

/** Once the worker has its parser: how long one command's analysis may take. */
export const SHELL_ANALYSIS_TIMEOUT_MS = 5_000;
/** How long a new worker may take to load the parser (a download of ~1.2 MB on a slow link). */
export const SHELL_ANALYSIS_LOAD_TIMEOUT_MS = 30_000;

/** Page → worker: a command. */
export type AnalysisRequest = TaskRequest<string>;
/** Worker → page: `ready` once the parser is loaded, then one analysis per command. */
export type AnalysisReply = TaskReply<ShellAnalysis>;
/** What the analyser needs of a Worker (a Web Worker, or a Node thread in tests). */
export type AnalysisWorkerLike = TaskWorkerLike<string, ShellAnalysis>;

/** The worker's side: answers each command with the in-process analysis. */
export function serveShellAnalysis(
  scope: Parameters<typeof serveWorkerTasks<string, ShellAnalysis>>[0],
): void {
  // A parser that cannot load is reported in each answer (analyzeShell says why); ready either way.
  serveWorkerTasks(scope, analyzeShell, loadShellParser());
}

export interface ShellAnalyzer {
  /** The analysis of `command`. Never rejects. */
  analyze(command: string): Promise<ShellAnalysis>;
  /** Ends the worker, if any. Never throws. */
  close(): void;
}

export interface ShellAnalyzerOptions {
  /** Starts the worker; without one, every analysis runs in-process. */
  createWorker?: () => AnalysisWorkerLike;
  timeoutMs?: number;
  loadTimeoutMs?: number;
}

export function createShellAnalyzer(options: ShellAnalyzerOptions = {}): ShellAnalyzer {
  const { createWorker } = options;
  if (!createWorker) return { analyze: analyzeShell, close: () => {} };
  const budgetMs = options.timeoutMs ?? SHELL_ANALYSIS_TIMEOUT_MS;
  const tasks = createWorkerTasks<string, ShellAnalysis>({
    spawn: createWorker,
    budgetMs,
    loadTimeoutMs: options.loadTimeoutMs ?? SHELL_ANALYSIS_LOAD_TIMEOUT_MS,
    name: 'The analysis',
  });
  return {
    async analyze(command) {
      const outcome = await tasks.run(command);
      if (outcome.ok) return outcome.value;
      // Over budget: a command that cannot be analysed (asked about where asking applies, never
      // auto-allowed). A worker that cannot serve: the analysis must happen either way, so here.
      if (outcome.reason === 'timeout')
        return unparsed(command, `the analysis took longer than ${budgetMs / 1000} s`, 0);
      return analyzeShell(command);
    },
    close: () => tasks.close(),
  };
}

let pageAnalyzer: ShellAnalyzer | undefined;

/**
 * The analysis of `command`, off the page's thread where the platform has Workers (see above). Never
 * rejects.
 */
export function analyzeShellOffPage(command: string): Promise<ShellAnalysis> {
  pageAnalyzer ??= createShellAnalyzer(
    typeof Worker === 'undefined'
      ? {}
      : {
          createWorker: () =>
            new Worker(new URL('./analysis.worker.ts', import.meta.url), {
              type: 'module',
              name: 'shell-analysis',
            }) as unknown as AnalysisWorkerLike,
        },
  );
  return pageAnalyzer.analyze(command);
}
