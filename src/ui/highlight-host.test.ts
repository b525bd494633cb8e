/**
 * Highlighting off the page's thread (highlight-host.ts) in a real Node worker thread: the same chunks
 * as in-process, requests dropped when their view went away, a worker that blocks is ended after the
 * timeout (and the next request gets a new one), a worker that cannot start or fails hands over to
 * in-process highlighting of small code (large code then shows plain).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nodeThread } from '../testing/node-thread.ts';
import { chunkText } from './highlight-chunks.ts';
import {
  createHighlighter,
  type Highlighter,
  type HighlightReply,
  type HighlightRequest,
  type HighlightWorkerLike,
  highlightHere,
} from './highlight-host.ts';

const highlightThread = (): HighlightWorkerLike =>
  nodeThread<HighlightRequest, HighlightReply>({
    entry: new URL('./testing/highlight-thread-worker.ts', import.meta.url),
  });

/** A thread that blocks on its first request (a runaway highlighting). */
const blockingThread = (): HighlightWorkerLike =>
  nodeThread<HighlightRequest, HighlightReply>({
    code: `const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ ready: true });
parentPort.on('message', () => { for (;;) {} });`,
  });

const big = Array.from({ length: 3_000 }, (_, i) => `export const v${i} = ${i} * 7; // note ${i}`).join('\n');

let highlighter: Highlighter | undefined;
afterEach(() => {
  highlighter?.close();
  highlighter = undefined;
});

describe('highlighting in a worker thread', () => {
  it('answers with the in-process chunks, for requests sent at once', async () => {
    let started = 0;
    highlighter = createHighlighter({
      createWorker: () => {
        started++;
        return highlightThread();
      },
    });
    const h = highlighter;
    const inputs: [string, string][] = [
      [big, 'javascript'],
      ['{"a": [1, 2]}', 'json'],
      ['echo hi | grep h', 'sh'],
      ['plain words', 'no-such-language'],
      ['', 'javascript'],
    ];
    const off = await Promise.all(inputs.map(([code, lang]) => h.highlight(code, lang)));
    const here = await Promise.all(inputs.map(([code, lang]) => highlightHere(code, lang)));
    expect(off).toEqual(here);
    expect(started).toBe(1);
    expect(off[0]?.chunks.length).toBeGreaterThan(10);
    expect(off[0]?.chunks.map(chunkText).join('')).toBe(big);
    expect(off[3]).toBeNull();
    expect(off[4]).toEqual({ chunks: [], ends: [] });
  });

  it('drops a request whose signal aborted while it waited', async () => {
    let posted = 0;
    highlighter = createHighlighter({
      createWorker: () => {
        const w = highlightThread();
        return {
          ...w,
          postMessage: (m) => {
            posted++;
            w.postMessage(m);
          },
          addEventListener: w.addEventListener,
          terminate: w.terminate,
        };
      },
    });
    const gone = new AbortController();
    const first = highlighter.highlight(big, 'javascript');
    const dropped = highlighter.highlight('const a = 1;', 'javascript', gone.signal);
    gone.abort();
    const last = highlighter.highlight('const b = 2;', 'javascript');
    expect(await dropped).toBeNull();
    expect((await first)?.ends.at(-1)).toBe(big.length);
    expect((await last)?.ends).toEqual([12]);
    expect(posted).toBe(2);
  });

  it('ends a worker that runs past the timeout: plain for that code, a new worker for the next', async () => {
    const kinds = [blockingThread, highlightThread];
    let started = 0;
    highlighter = createHighlighter({
      createWorker: () => kinds[Math.min(started++, 1)](),
      timeoutMs: 300,
    });
    const t0 = Date.now();
    expect(await highlighter.highlight('const a = 1;', 'javascript')).toBeNull();
    expect(Date.now() - t0).toBeLessThan(5_000);
    const next = await highlighter.highlight('const a = 1;', 'javascript');
    expect(next?.ends).toEqual([12]);
    expect(started).toBe(2);
  });

  it('highlights in-process when the worker cannot start, or fails', async () => {
    highlighter = createHighlighter({
      createWorker: () => {
        throw new Error('no workers here');
      },
    });
    expect((await highlighter.highlight('const a = 1;', 'javascript'))?.ends).toEqual([12]);
    highlighter.close();
    highlighter = createHighlighter({
      createWorker: () => nodeThread<HighlightRequest, HighlightReply>({ code: `throw new Error('boom');` }),
    });
    expect((await highlighter.highlight('const a = 1;', 'javascript'))?.ends).toEqual([12]);
    // Large code is not highlighted on this thread: it shows plain.
    expect(await highlighter.highlight(big, 'javascript')).toBeNull();
  });
});
