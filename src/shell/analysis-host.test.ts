/**
 * The analysis off the page's thread (analysis-host.ts) in a real Node worker thread: the same answers
 * as in-process, and the ways a worker fails (cannot start, fails, never loads, blocks on a command).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nodeThread } from '../testing/node-thread.ts';
import {
  type AnalysisReply,
  type AnalysisRequest,
  type AnalysisWorkerLike,
  createShellAnalyzer,
  type ShellAnalyzer,
} from './analysis-host.ts';
import { analyzeShell } from './analyze.ts';
import { shellParserRuns } from './parser.ts';

const analysisThread = (): AnalysisWorkerLike =>
  nodeThread<AnalysisRequest, AnalysisReply>({
    entry: new URL('./testing/analysis-thread-worker.ts', import.meta.url),
  });

/** A thread that loads "its parser" at once, then blocks its thread on the first request. */
const blockingThread = (): AnalysisWorkerLike =>
  nodeThread<AnalysisRequest, AnalysisReply>({
    code: `const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ ready: true });
parentPort.on('message', () => { for (;;) {} });`,
  });

const COMMANDS = [
  'ls -la src',
  'cat a.txt | grep -n foo > out.txt',
  'find . -name "*.js" -exec rm {} +',
  'echo $(curl https://example.com)',
  'if then fi (',
  `cat <<'EOF'\nline\nEOF`,
  'x=1; while [ $x -lt 3 ]; do x=$((x+1)); done',
];

let analyzer: ShellAnalyzer | undefined;
afterEach(() => {
  analyzer?.close();
  analyzer = undefined;
});

describe('shell analysis in a worker thread', () => {
  it('answers as the in-process analysis does, for commands sent at once', async () => {
    let started = 0;
    analyzer = createShellAnalyzer({
      createWorker: () => {
        started++;
        return analysisThread();
      },
    });
    const a = analyzer;
    const runsHere = shellParserRuns();
    const off = await Promise.all(COMMANDS.map((c) => a.analyze(c)));
    // Parsed in the other thread: this thread's parser did not run.
    expect(shellParserRuns()).toBe(runsHere);
    const here = await Promise.all(COMMANDS.map((c) => analyzeShell(c)));
    expect(off).toEqual(here);
    expect(off.map((x) => x.parsed)).toContain(false);
    expect(started).toBe(1);
  }, 60_000);

  it('a command that blocks the worker counts as unparsed (fails closed); the next gets a new worker', async () => {
    let started = 0;
    analyzer = createShellAnalyzer({
      timeoutMs: 300,
      createWorker: () => (++started === 1 ? blockingThread() : analysisThread()),
    });
    const stuck = await analyzer.analyze('ls');
    expect(stuck).toMatchObject({ parsed: false, readOnly: false, destructive: true });
    expect(stuck.parseError).toMatch(/took longer than 0.3 s/);
    expect(await analyzer.analyze('ls')).toEqual(await analyzeShell('ls'));
    expect(started).toBe(2);
  }, 60_000);

  it('a worker that cannot start, fails, or never loads: the analysis runs in-process', async () => {
    const expected = await analyzeShell('cat a.txt > b.txt');
    const cannot = createShellAnalyzer({
      createWorker: () => {
        throw new Error('blocked by the page');
      },
    });
    expect(await cannot.analyze('cat a.txt > b.txt')).toEqual(expected);

    const failing = createShellAnalyzer({
      createWorker: () => nodeThread({ code: `throw new Error('the worker script did not load')` }),
    });
    expect(await failing.analyze('cat a.txt > b.txt')).toEqual(expected);
    failing.close();

    const silent = createShellAnalyzer({
      loadTimeoutMs: 300,
      createWorker: () =>
        nodeThread({ code: `require('node:worker_threads').parentPort.on('message', () => {})` }),
    });
    expect(await silent.analyze('cat a.txt > b.txt')).toEqual(expected);
    silent.close();
  }, 60_000);
});
