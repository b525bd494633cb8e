/**
 * Where Bash commands are analysed (./analyze.ts) for the permission decision. In a browser page: in a
 * Worker (./analysis.worker.ts), so neither loading just-bash's parser (a 1.2 MB module: evaluating it
 * alone blocked the page for ~80 ms) nor analysing a long command blocks the page. Without a Worker
 * (Node, tests): in-process, as before.
 *
 * A worker that cannot start, fails, or has not loaded its parser within SHELL_ANALYSIS_LOAD_TIMEOUT_MS
 * is given up for the page's lifetime and the analysis runs in-process (it must happen either way). A
 * command whose analysis takes longer than SHELL_ANALYSIS_TIMEOUT_MS ends the worker (the next command
 * gets a new one) and counts as unparsed, so the rules treat it as any command that cannot be analysed:
 * it is asked about where asking applies, never auto-allowed.
 */
import { analyzeShell, unparsed } from './analyze.ts';
import { loadShellParser } from './parser.ts';
import type { ShellAnalysis } from './types.ts';

/** Once the worker has its parser: how long one command's analysis may take. */
export const SHELL_ANALYSIS_TIMEOUT_MS = 5_000;
/** How long a new worker may take to load the parser (a download of ~1.2 MB on a slow link). */
export const SHELL_ANALYSIS_LOAD_TIMEOUT_MS = 30_000;

/** Page → worker. */
export interface AnalysisRequest {
  id: number;
  command: string;
}
/** Worker → page: `ready` once the parser is loaded, then one answer per request. */
export type AnalysisReply = { ready: true } | { id: number; analysis: ShellAnalysis };

/** What the analyser needs of a Worker (a Web Worker, or a Node thread in tests). */
export interface AnalysisWorkerLike {
  postMessage(message: AnalysisRequest): void;
  addEventListener(type: 'message', listener: (event: { data: AnalysisReply }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

/** The worker's side: answers each request with the in-process analysis. */
export function serveShellAnalysis(
  post: (reply: AnalysisReply) => void,
  onRequest: (listener: (request: AnalysisRequest) => void) => void,
): void {
  onRequest((request) => {
    void analyzeShell(request.command).then((analysis) => post({ id: request.id, analysis }));
  });
  // A parser that cannot load is reported in each answer (analyzeShell says why); ready either way.
  void loadShellParser()
    .catch(() => undefined)
    .then(() => post({ ready: true }));
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

interface Waiting {
  command: string;
  resolve(analysis: ShellAnalysis): void;
  timer?: ReturnType<typeof setTimeout>;
}

export function createShellAnalyzer(options: ShellAnalyzerOptions = {}): ShellAnalyzer {
  const timeoutMs = options.timeoutMs ?? SHELL_ANALYSIS_TIMEOUT_MS;
  const loadTimeoutMs = options.loadTimeoutMs ?? SHELL_ANALYSIS_LOAD_TIMEOUT_MS;
  let givenUp = !options.createWorker;
  let current:
    | { worker: AnalysisWorkerLike; ready: boolean; loadTimer: ReturnType<typeof setTimeout> }
    | undefined;
  const waiting = new Map<number, Waiting>();
  let nextId = 0;

  const startTimer = (id: number, entry: Waiting) => {
    entry.timer = setTimeout(() => {
      waiting.delete(id);
      end();
      const seconds = timeoutMs / 1000;
      entry.resolve(unparsed(entry.command, `the analysis took longer than ${seconds} s`, 0));
    }, timeoutMs);
  };

  const end = () => {
    if (!current) return;
    clearTimeout(current.loadTimer);
    current.worker.terminate();
    current = undefined;
  };

  /** The worker cannot serve: everything waiting, and everything after, is analysed here. */
  const giveUp = () => {
    givenUp = true;
    end();
    const left = [...waiting.values()];
    waiting.clear();
    for (const entry of left) {
      clearTimeout(entry.timer);
      void analyzeShell(entry.command).then(entry.resolve);
    }
  };

  const start = (): boolean => {
    let worker: AnalysisWorkerLike;
    try {
      worker = (options.createWorker as () => AnalysisWorkerLike)();
    } catch {
      return false;
    }
    const self = { worker, ready: false, loadTimer: setTimeout(giveUp, loadTimeoutMs) };
    current = self;
    worker.addEventListener('message', ({ data }) => {
      if (current !== self) return;
      if ('ready' in data) {
        self.ready = true;
        clearTimeout(self.loadTimer);
        for (const [id, entry] of waiting) startTimer(id, entry);
        return;
      }
      const entry = waiting.get(data.id);
      if (!entry) return;
      waiting.delete(data.id);
      clearTimeout(entry.timer);
      entry.resolve(data.analysis);
    });
    worker.addEventListener('error', () => {
      if (current === self) giveUp();
    });
    return true;
  };

  return {
    analyze(command) {
      if (givenUp || (!current && !start())) {
        givenUp = true;
        return analyzeShell(command);
      }
      const worker = current as NonNullable<typeof current>;
      const id = ++nextId;
      return new Promise<ShellAnalysis>((resolve) => {
        const entry: Waiting = { command, resolve };
        waiting.set(id, entry);
        if (worker.ready) startTimer(id, entry);
        worker.worker.postMessage({ id, command });
      });
    },
    close: end,
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
