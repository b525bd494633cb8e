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

const DiffRows = memo(function DiffRows({ rows }: { rows: readonly DiffRow[] }) {
  return rows.map((row, i) => {
    // Rows have no identity beyond their position in this diff.
    const key = `${i}`;
    if (row.op === 'hunk') {
      return (
        <span key={key} className="diff-line diff-hunk">
          {row.text}
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
        {row.text}
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
  /** The content's length: over FOLD_CHARS it folds too (one very long line). */
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

/** `text` as a folded view shows it: all of it when open, else its first FOLD_LINES lines. */
const shown = (text: string, open: boolean) => (open ? text : firstLines(text, FOLD_LINES));

export function CodeView({ code, path, language }: { code: string; path?: string; language?: string }) {
  return (
    <div className="code-view">
      {path && <div className="code-head mono">{path}</div>}
      <Foldable lines={lineCount(code)} className="code-body">
        {(open) => <HighlightedCode code={shown(code, open)} language={language ?? languageOfPath(path)} />}
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
  return (
    <Foldable lines={lineCount(text)} chars={text.length} className="plain-text">
      {(open) => (open ? text : shown(text, false).slice(0, FOLD_CHARS))}
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
          {view.stdout && <TerminalStream text={view.stdout} className="terminal-stdout" />}
          {view.stderr && <TerminalStream text={view.stderr} className="terminal-stderr" />}
          {!view.stdout && !view.stderr && <pre className="terminal-empty">(no output)</pre>}
          <div className="terminal-foot">
            <span className={view.exitCode === 0 ? 'exit-ok' : 'exit-bad'} data-testid="exit-code">
              exit {view.exitCode}
            </span>
            {view.timedOut && <span className="exit-bad">timed out</span>}
          </div>
        </div>
      );
  }
}

function TerminalStream({ text, className }: { text: string; className: string }) {
  return (
    <Foldable lines={lineCount(text)} className={className}>
      {(open) => shown(text, open)}
    </Foldable>
  );
}
