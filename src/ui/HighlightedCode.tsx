/**
 * Code with syntax highlighting. The code shows plain at once; its highlighting is computed off the
 * page's thread (./highlight-host.ts: a worker) and comes back in chunks (./highlight-chunks.ts), each
 * turned into elements in its own task, in order, so a large file never blocks the page (issue 17: a
 * 190 kB file highlighted and committed in one render blocked it for seconds). Until a chunk's turn
 * its text stays plain; nothing is ever left out. Tokens are React elements: code is never parsed as
 * HTML.
 */
import { memo, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { yieldToBrowser } from '../core/main-thread-yield.ts';
import { CHUNK_CHARS, type Chunk, type Highlighted } from './highlight-chunks.ts';
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

/**
 * Where the chunks group into runs of whole lines (a run ends at a chunk that ends a line), with each
 * run's line count: each run is laid out on its own and skipped while off screen (`content-visibility`),
 * so adding a chunk to a long file costs the page the lines it adds, not the whole file again.
 */
function linesRuns(code: string, ends: readonly number[]): { from: number; to: number; lines: number }[] {
  const runs: { from: number; to: number; lines: number }[] = [];
  let from = 0;
  let start = 0;
  ends.forEach((end, i) => {
    if (code[end - 1] !== '\n' && i < ends.length - 1) return;
    let lines = 0;
    for (let at = code.indexOf('\n', start); at >= 0 && at < end; at = code.indexOf('\n', at + 1)) lines++;
    if (code[end - 1] !== '\n') lines++;
    runs.push({ from, to: i + 1, lines });
    from = i + 1;
    start = end;
  });
  return runs;
}

/** Long code before its highlighting comes: runs of whole lines of about CHUNK_CHARS characters each. */
function plainRuns(code: string): { text: string; lines: number }[] | undefined {
  if (code.length <= CHUNK_CHARS) return undefined;
  const runs: { text: string; lines: number }[] = [];
  let from = 0;
  while (from < code.length) {
    const at = code.indexOf('\n', Math.min(code.length, from + CHUNK_CHARS) - 1);
    const to = at < 0 ? code.length : at + 1;
    const text = code.slice(from, to);
    let lines = text.endsWith('\n') ? 0 : 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    runs.push({ text, lines });
    from = to;
  }
  return runs;
}

/** A `<code>` element with highlighting once available. */
export function HighlightedCode({ code, language }: { code: string; language?: string }) {
  const shown = useHighlighted(code, language);
  // Chunks that do not end where the code does are not shown (plain text instead): no text is lost.
  const result = shown?.result && (shown.result.ends.at(-1) ?? 0) === code.length ? shown.result : undefined;
  const done = !!shown && !!result && shown.ready >= result.chunks.length;
  const runs = useMemo(
    () => (result && result.chunks.length > 1 ? linesRuns(code, result.ends) : undefined),
    [code, result],
  );
  const plain = useMemo(() => (result ? undefined : plainRuns(code)), [code, result]);
  const piece = (chunk: Chunk, i: number) =>
    result && i < (shown?.ready ?? 0) ? (
      // A new key: the plain piece is replaced, not reconciled token by token.
      <HighlightedChunk key={`h${result.ends[i]}`} chunk={chunk} />
    ) : (
      <span key={`p${result?.ends[i]}`}>
        {code.slice(i === 0 ? 0 : (result?.ends[i - 1] ?? 0), result?.ends[i])}
      </span>
    );
  return (
    <code
      className={`hljs${language ? ` language-${language}` : ''}${runs || plain ? ' code-runs' : ''}`}
      data-highlighted={done ? 'yes' : 'no'}
    >
      {result
        ? runs
          ? runs.map((run) => (
              <span
                key={`r${result.ends[run.from]}`}
                className="code-lines"
                style={{ containIntrinsicBlockSize: `auto ${run.lines}lh` }}
              >
                {result.chunks.slice(run.from, run.to).map((chunk, j) => piece(chunk, run.from + j))}
              </span>
            ))
          : result.chunks.map(piece)
        : plain
          ? plain.map((run, i) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: runs are positions in this code
                key={`t${i}`}
                className="code-lines"
                style={{ containIntrinsicBlockSize: `auto ${run.lines}lh` }}
              >
                {run.text}
              </span>
            ))
          : code}
    </code>
  );
}
