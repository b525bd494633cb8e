/**
 * Code with syntax highlighting. The code shows plain at once; its highlighting is computed off the
 * page's thread (./highlight-host.ts: a worker) and comes back in chunks (./highlight-chunks.ts), each
 * turned into elements in its own task, in order, so a large file never blocks the page (issue 17: a
 * 190 kB file highlighted and committed in one render blocked it for seconds). Until a chunk's turn
 * its text stays plain; nothing is ever left out. Tokens are React elements: code is never parsed as
 * HTML.
 */
import { memo, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { yieldToBrowser } from '../agent/main-thread-yield.ts';
import type { Chunk, Highlighted } from './highlight-chunks.ts';
import { Lru } from './lru.ts';

/**
 * The highlighting host (./highlight-host.ts: the worker, its budget, the chunks), loaded with the first
 * code shown: code shows plain until then, so it need not be in the page's first load.
 */
const highlightOffPage = (code: string, language: string, signal: AbortSignal): Promise<Highlighted | null> =>
  import('./highlight-host.ts').then((m) => m.highlightOffPage(code, language, signal));

/** Highlighting results (immutable, so reusable): a remounted row does not ask again. */
const highlighted = new Lru<string, Highlighted | null>(500);

const keyOf = (code: string, language: string) => `${language}\u0000${code}`;

/**
 * Highlighting work waiting for its turn, one job per task: a render that mounts many code views (a
 * turn of four Writes), or one large file's chunks, would otherwise be turned into elements in one task.
 */
const queue: Array<() => void> = [];
let draining = false;

function schedule(job: () => void): void {
  queue.push(job);
  if (draining) return;
  draining = true;
  void (async () => {
    while (queue.length > 0) {
      await yieldToBrowser();
      queue.shift()?.();
    }
    draining = false;
  })();
}

/** Time one step of turning chunks into elements aims at (ms), well under a long task's 50. */
const STEP_BUDGET_MS = 10;
/** Chunks per step at most. */
const MAX_STEP_CHUNKS = 4;

interface Shown {
  key: string;
  result: Highlighted | null;
  /** Chunks shown highlighted (the first `ready`); the rest are plain. */
  ready: number;
}

const shownOf = (key: string, result: Highlighted | null): Shown => ({
  key,
  result,
  // The first chunk at once: a small view that was highlighted before does not flash plain.
  ready: result ? Math.min(1, result.chunks.length) : 0,
});

/** The highlighting of `code` and how much of it shows, or null while there is none yet. */
function useHighlighted(code: string, language: string | undefined): Shown | null {
  const key = language ? keyOf(code, language) : undefined;
  const [shown, setShown] = useState<Shown | null>(() => {
    const hit = key ? highlighted.get(key) : undefined;
    return key && hit !== undefined ? shownOf(key, hit) : null;
  });
  const current = key && shown?.key === key ? shown : null;
  const missing = current === null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for code and language
  useEffect(() => {
    if (!key || !language || !missing) return;
    const abort = new AbortController();
    const hit = highlighted.get(key);
    const got =
      hit !== undefined
        ? Promise.resolve(hit)
        : highlightOffPage(code, language, abort.signal).then((result) => {
            if (!abort.signal.aborted) highlighted.set(key, result);
            return result;
          });
    void got.then((result) =>
      schedule(() => {
        if (!abort.signal.aborted) setShown(shownOf(key, result));
      }),
    );
    return () => abort.abort();
  }, [key, missing]);

  // The next chunks, a task later: as many as the last step's render and commit allowed within
  // STEP_BUDGET_MS (measured from the update to its layout effect, which runs right after the commit).
  const step = useRef({ chunks: 1, at: 0 });
  useLayoutEffect(() => {
    const s = step.current;
    if (s.at === 0 || !current) return;
    const took = performance.now() - s.at;
    s.at = 0;
    if (took < STEP_BUDGET_MS / 2) s.chunks = Math.min(s.chunks * 2, MAX_STEP_CHUNKS);
    else if (took > STEP_BUDGET_MS) s.chunks = Math.max(1, Math.floor(s.chunks / 2));
  }, [current]);
  useEffect(() => {
    if (!current?.result || current.ready >= current.result.chunks.length) return;
    const s = step.current;
    let cancelled = false;
    schedule(() => {
      if (cancelled) return;
      s.at = performance.now();
      setShown((x) => (x === current ? { ...x, ready: x.ready + s.chunks } : x));
    });
    return () => {
      cancelled = true;
    };
  }, [current]);

  return current;
}

/** The elements of one chunk's operations (texts, span opens and closes). */
function chunkNodes(chunk: Chunk): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { cls: string; children: ReactNode[] }[] = [];
  let key = 0;
  const close = () => {
    const done = stack.pop();
    if (!done) return;
    (stack.length ? stack[stack.length - 1].children : root).push(
      <span key={key++} className={done.cls || undefined}>
        {done.children}
      </span>,
    );
  };
  for (const op of chunk.ops) {
    if (typeof op === 'string') (stack.length ? stack[stack.length - 1].children : root).push(op);
    else if (op > 0) stack.push({ cls: chunk.classes[op - 1] ?? '', children: [] });
    else close();
  }
  while (stack.length) close();
  return root;
}

const HighlightedChunk = memo(function HighlightedChunk({ chunk }: { chunk: Chunk }) {
  return <span>{chunkNodes(chunk)}</span>;
});

/** A `<code>` element with highlighting once available. */
export function HighlightedCode({ code, language }: { code: string; language?: string }) {
  const shown = useHighlighted(code, language);
  // Chunks that do not end where the code does are not shown (plain text instead): no text is lost.
  const result = shown?.result && (shown.result.ends.at(-1) ?? 0) === code.length ? shown.result : undefined;
  const done = !!shown && !!result && shown.ready >= result.chunks.length;
  return (
    <code className={`hljs${language ? ` language-${language}` : ''}`} data-highlighted={done ? 'yes' : 'no'}>
      {result
        ? result.chunks.map((chunk, i) =>
            i < (shown?.ready ?? 0) ? (
              // A new key: the plain piece is replaced, not reconciled token by token.
              <HighlightedChunk key={`h${result.ends[i]}`} chunk={chunk} />
            ) : (
              <span key={`p${result.ends[i]}`}>
                {code.slice(i === 0 ? 0 : result.ends[i - 1], result.ends[i])}
              </span>
            ),
          )
        : code}
    </code>
  );
}
