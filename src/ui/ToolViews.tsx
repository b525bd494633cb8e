/** Renderers for the plain-data views tools return: call bodies (ToolUseMessage) and results (ToolResultView). */
import { memo, useEffect, useMemo, useState } from 'react';
import { yieldToBrowser } from '../core/main-thread-yield.ts';
import type { ToolResultView, ToolUseMessage } from '../core/tool.ts';
import { HighlightedCode } from './HighlightedCode.tsx';
import { languageOfPath } from './language.ts';
import { Markdown } from './markdown/Markdown.tsx';
import { useSnippetLine } from './sandbox-context.ts';
import { type DiffRow, unifiedDiff } from './unified-diff.ts';

/** Results longer than this many lines start folded to their first FOLD_LINES lines. */
const FOLD_LINES = 40;
/** Characters a folded plain text shows at most (one line can be a megabyte). */
const FOLD_CHARS = 8_000;
/**
 * Rows of an open diff rendered per task: opening a rewrite of a 36,000-line file rendered every row in
 * one task (7.4 s in Chromium, issue 17: no task over 50 ms); block by block, the page keeps answering.
 */
const DIFF_BLOCK_ROWS = 400;
/**
 * Characters of one diff row shown: a Write of a minified file (one line of 1.5 MB) made a row the page
 * took 460-620 ms to lay out, twice. The rest of the line is said, not shown (the file viewer has it).
 */
const DIFF_ROW_CHARS = 4_000;

/** A row's text as shown: cut at DIFF_ROW_CHARS, with how much was left out. */
function rowText(text: string): React.ReactNode {
  if (text.length <= DIFF_ROW_CHARS) return text;
  return (
    <>
      {text.slice(0, DIFF_ROW_CHARS)}
      <span className="diff-cut muted" data-testid="diff-row-cut">
        {` … ${(text.length - DIFF_ROW_CHARS).toLocaleString('en-US')} more characters on this line`}
      </span>
    </>
  );
}

const DiffRows = memo(function DiffRows({ rows }: { rows: readonly DiffRow[] }) {
  return rows.map((row, i) => {
    // Rows have no identity beyond their position in this diff.
    const key = `${i}`;
    if (row.op === 'hunk') {
      return (
        <span key={key} className="diff-line diff-hunk">
          {rowText(row.text)}
        </span>
      );
    }
    const sign = row.op === 'add' ? '+' : row.op === 'del' ? '-' : ' ';
    return (
      <span key={key} className={`diff-line diff-${row.op}`} data-diff-op={row.op}>
        <span className="diff-num" aria-hidden="true">
          {row.oldLine ?? ''}
        </span>
        <span className="diff-num" aria-hidden="true">
          {row.newLine ?? ''}
        </span>
        <span className="diff-sign">{sign}</span>
        {rowText(row.text)}
      </span>
    );
  });
});

/** All rows of an open diff, one more block per task (mounted anew each time the fold opens). */
function OpenDiffRows({ rows }: { rows: readonly DiffRow[] }) {
  const blocks = useMemo(() => {
    const out: DiffRow[][] = [];
    for (let i = 0; i < rows.length; i += DIFF_BLOCK_ROWS) out.push(rows.slice(i, i + DIFF_BLOCK_ROWS));
    return out;
  }, [rows]);
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= blocks.length) return;
    let live = true;
    void yieldToBrowser().then(() => {
      if (live) setShown((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [shown, blocks.length]);
  // Each block is laid out on its own and skipped while off screen (content-visibility): adding one
  // costs the page its rows, not every row shown so far again.
  return blocks.slice(0, shown).map((block, b) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positions in this diff
    <span key={b} className="diff-block" style={{ containIntrinsicBlockSize: `auto ${block.length}lh` }}>
      <DiffRows rows={block} />
    </span>
  ));
}

export function DiffView({
  path,
  before,
  after,
  firstLine = 1,
}: {
  path?: string;
  before: string;
  after: string;
  /** The line of the file where `before` starts (an Edit's snippet), so rows carry the file's numbers. */
  firstLine?: number;
}) {
  const diff = useMemo(() => unifiedDiff(before, after, firstLine), [before, after, firstLine]);
  return (
    <div className="diff" data-testid="diff-view">
      <div className="diff-head">
        <span className="mono">{path ?? ''}</span>
        <span className="diff-stat">
          <span className="diff-stat-add">+{diff.added}</span>{' '}
          <span className="diff-stat-del">−{diff.removed}</span>
        </span>
      </div>
      {diff.fallback && (
        <div className="diff-note" data-testid="diff-fallback">
          Too large or too different to compare line by line: shown as replaced.
        </div>
      )}
      <Foldable lines={diff.rows.length} className="diff-body">
        {(open) => (
          <>
            {diff.rows.length === 0 && <span className="diff-line diff-skip">(no changes)</span>}
            {/* Folded, only the rows that show are rendered: a rewrite of a large file has thousands. */}
            {open ? (
              <OpenDiffRows key="open" rows={diff.rows} />
            ) : (
              <DiffRows key="folded" rows={diff.rows.slice(0, FOLD_LINES)} />
            )}
          </>
        )}
      </Foldable>
    </div>
  );
}

/** A `<pre>` that folds long content behind a "show all" button. */
function Foldable({
  lines,
  chars = 0,
  className,
  children,
}: {
  lines: number;
  /** Characters of the content's first FOLD_LINES lines: over FOLD_CHARS it folds too (a very long line). */
  chars?: number;
  className: string;
  /** The content, or a function of whether the fold is open (to render only what shows). */
  children: React.ReactNode | ((open: boolean) => React.ReactNode);
}) {
  const [open, setOpen] = useState(false);
  const long = lines > FOLD_LINES || chars > FOLD_CHARS;
  const folded = long && !open;
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard */}
      <pre className={`${className}${folded ? ' folded' : ''}`} tabIndex={0}>
        {typeof children === 'function' ? children(!folded) : children}
      </pre>
      {long && (
        <button
          type="button"
          className="btn btn-ghost btn-tiny fold-toggle"
          onClick={() => setOpen(!open)}
          data-testid="fold-toggle"
        >
          {open
            ? 'Show less'
            : lines > FOLD_LINES
              ? `Show all ${lines} lines`
              : `Show all ${chars.toLocaleString('en-US')} characters`}
        </button>
      )}
    </>
  );
}

/** Lines of `text` as shown: a final newline ends the last line, it starts no new one. */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') && n > 1 ? n - 1 : n;
}

/**
 * The first `n` lines of `text` (the whole text when it has no more). Folded content renders only
 * these: a 1,000-line file written by a tool costs its layout, paint and highlighting on every card
 * otherwise, although only the first lines show.
 */
export function firstLines(text: string, n: number): string {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at);
}

/**
 * How `text` folds: its first FOLD_LINES lines, cut at FOLD_CHARS characters (a minified file is one
 * line of megabytes: laid out whole, the page spent 230 ms shaping it). `head` is what the fold keeps
 * before that cut (the whole text when it has no more lines).
 */
function foldOf(text: string): { lines: number; head: number; folded: string } {
  const head = firstLines(text, FOLD_LINES);
  return { lines: lineCount(text), head: head.length, folded: head.slice(0, FOLD_CHARS) };
}

export function CodeView({ code, path, language }: { code: string; path?: string; language?: string }) {
  const fold = useMemo(() => foldOf(code), [code]);
  return (
    <div className="code-view">
      {path && <div className="code-head mono">{path}</div>}
      <Foldable lines={fold.lines} chars={fold.head} className="code-body">
        {(open) => (
          <HighlightedCode code={open ? code : fold.folded} language={language ?? languageOfPath(path)} />
        )}
      </Foldable>
    </div>
  );
}

/** Markdown a tool returned (a plan, search results, a sub-agent's report), rendered safely. */
export function MarkdownView({ text }: { text: string }) {
  return (
    <div className="tool-markdown" data-testid="tool-markdown">
      <Markdown text={text} />
    </div>
  );
}

/**
 * Text a tool gave (a result without its own view, an error): folded to its first FOLD_LINES lines and
 * FOLD_CHARS characters. An Edit's error quoting a 300 kB string, shown whole, cost the page 35 ms of
 * text layout.
 */
export function PlainText({ text }: { text: string }) {
  const fold = useMemo(() => foldOf(text), [text]);
  return (
    <Foldable lines={fold.lines} chars={fold.head} className="plain-text">
      {(open) => (open ? text : fold.folded)}
    </Foldable>
  );
}

/** The body of a call as the tool describes it (shown while running, and for calls without a result view). */
export function ToolBody({ body }: { body: ToolUseMessage['body'] }) {
  if (!body) return null;
  switch (body.kind) {
    case 'none':
      return null;
    case 'text':
      return <PlainText text={body.text} />;
    case 'markdown':
      return <MarkdownView text={body.text} />;
    case 'code':
      return <CodeView code={body.code} language={body.language} />;
    case 'terminal':
      return (
        <pre className="terminal terminal-command">
          <span className="prompt-sign">$ </span>
          {body.command}
        </pre>
      );
    case 'diff':
      return <SnippetDiff path={body.path} before={body.before} after={body.after} />;
  }
}

/** A diff of a snippet of a file (an Edit's old and new string), numbered from where it is in the file. */
function SnippetDiff({ path, before, after }: { path: string; before: string; after: string }) {
  const firstLine = useSnippetLine(path, before, after);
  return <DiffView path={path} before={before} after={after} firstLine={firstLine} />;
}

export function ResultView({ view }: { view: ToolResultView }) {
  switch (view.kind) {
    case 'text':
      return <PlainText text={view.text} />;
    case 'markdown':
      return <MarkdownView text={view.text} />;
    case 'code':
      return <CodeView code={view.code} path={view.path} language={view.language} />;
    case 'diff':
      return <DiffView path={view.path} before={view.before} after={view.after} />;
    case 'files':
      return (
        <div className="files-result">
          {view.paths.length === 0 ? (
            <div className="muted">No files matched.</div>
          ) : (
            <ul>
              {view.paths.map((p) => (
                <li key={p} className="mono">
                  {p}
                </li>
              ))}
            </ul>
          )}
          {view.truncated && <div className="muted">(more results were cut)</div>}
        </div>
      );
    case 'terminal':
      return (
        <div className="terminal" data-testid="terminal-result">
          {view.stdout && (
            <TerminalStream text={view.stdout} className="terminal-stdout" tail={!!view.backgroundId} />
          )}
          {view.stderr && (
            <TerminalStream text={view.stderr} className="terminal-stderr" tail={!!view.backgroundId} />
          )}
          {!view.stdout && !view.stderr && <pre className="terminal-empty">(no output)</pre>}
          <div className="terminal-foot">
            {view.state ? (
              <span data-testid="terminal-state">{view.state}</span>
            ) : (
              <span className={view.exitCode === 0 ? 'exit-ok' : 'exit-bad'} data-testid="exit-code">
                exit {view.exitCode}
              </span>
            )}
            {view.timedOut && <span className="exit-bad">timed out</span>}
          </div>
        </div>
      );
  }
}

/**
 * A command's output, folded to its start; a background command's (`tail`) to its end, its latest lines,
 * as a terminal shows a command that runs on.
 */
function TerminalStream({ text, className, tail }: { text: string; className: string; tail?: boolean }) {
  const fold = useMemo(() => (tail ? tailFoldOf(text) : foldOf(text)), [text, tail]);
  return (
    <Foldable lines={fold.lines} chars={fold.head} className={tail ? `${className} tail` : className}>
      {(open) => (open ? text : fold.folded)}
    </Foldable>
  );
}

/** Lines of a folded end: what the fold's height shows. */
const TAIL_LINES = 12;

/** How `text` folds to its end: its last TAIL_LINES lines (at most FOLD_CHARS characters of them). */
function tailFoldOf(text: string): { lines: number; head: number; folded: string } {
  const lines = lineCount(text);
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let at = body.length;
  for (let i = 0; i < TAIL_LINES && at > 0; i++) at = body.lastIndexOf('\n', at - 1);
  const end = body.slice(Math.max(0, at + 1)).slice(-FOLD_CHARS);
  return { lines, head: end.length, folded: end };
}
