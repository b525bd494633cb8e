/**
 * The terminal: xterm attached to the sandbox. On a backend with an interactive shell (WebContainer's
 * `jsh`) keys go to the shell and its output comes back raw; otherwise (just-bash) a line editor runs
 * each line through `exec`. Either way the agent's Bash runs appear in the same terminal, marked as
 * the agent's, and the line being typed is redrawn after them.
 */
import { FitAddon } from '@xterm/addon-fit';
import { SerializeAddon } from '@xterm/addon-serialize';
import { Terminal as XTerm } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import './terminal.css';
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../core/errors.ts';
import type { InteractiveShell, Sandbox, SandboxEvent } from '../sandbox/sandbox.ts';
import { LineEditor } from './line-editor.ts';
import { readTabValue, writeTabValue } from './tab-session.ts';
import { dropTerminalQueries } from './terminal-queries.ts';

export interface TerminalProps {
  sandbox: Sandbox | null;
  /** Focus the terminal once it is ready. */
  autoFocus?: boolean;
  /** The page's theme preference (default: the system's). */
  theme?: 'light' | 'dark' | 'system';
}

type Mode = 'starting' | 'line' | 'shell';

// Muted text is the palette's bright black (set per theme below with a readable contrast), not SGR dim:
// xterm draws dim at half opacity, under 4.5:1 on the dark background.
const DIM = '\x1b[90m';
/** WCAG AA for normal text. */
const TERMINAL_MIN_CONTRAST = 4.5;
const BOLD = '\x1b[1m';
const RED = '\x1b[31m';
const MAGENTA = '\x1b[35m';
const RESET = '\x1b[0m';
/** The mark in front of everything the agent ran. */
export const AGENT_MARK = '[agent]';

/** Writes the agent's runs into `term`; `redraw` returns what restores the user's line afterwards. */
function showAgentRuns(term: XTerm, sandbox: Sandbox, redraw: () => string): () => void {
  const active = new Map<string, { atLineStart: boolean }>();
  const show = (e: SandboxEvent) => {
    if (e.type === 'exec-start' && e.origin === 'agent') {
      const wasIdle = active.size === 0;
      active.set(e.id, { atLineStart: true });
      const what = e.background ? 'started in the background:' : '$';
      term.write(
        `${wasIdle ? '\r\x1b[K' : ''}${MAGENTA}${BOLD}${AGENT_MARK}${RESET} ${DIM}${what}${RESET} ${e.command}\r\n`,
      );
      return;
    }
    const run = 'id' in e ? active.get(e.id) : undefined;
    if (!run) return;
    if (e.type === 'exec-output') {
      term.write(e.stream === 'stderr' ? `${RED}${e.chunk}${RESET}` : e.chunk);
      run.atLineStart = /\n$/.test(e.chunk);
    } else if (e.type === 'exec-end') {
      active.delete(e.id);
      const how = e.timedOut ? 'timed out' : e.aborted ? 'interrupted' : `exit ${e.exitCode}`;
      const colour = e.exitCode === 0 ? DIM : RED;
      term.write(`${run.atLineStart ? '' : '\r\n'}${colour}${AGENT_MARK} ${how}${RESET}\r\n`);
      if (active.size === 0) term.write(redraw());
    }
  };
  // Runs from before the terminal opened first, then the new ones as they come.
  for (const e of sandbox.recentEvents()) show(e);
  return sandbox.onEvent(show);
}

/** Where the terminal's screen is kept across a reload (the tab's sessionStorage), and how much of it. */
const KEPT = 'terminal-screen';
const KEPT_ROWS = 1000;
const KEPT_MAX_CHARS = 300_000;
/** Writes settle this long before the screen is kept again. */
const KEEP_DEBOUNCE_MS = 400;

/**
 * The sandbox of the page's first terminal: only its terminal shows the kept screen (a terminal of
 * another sandbox, chosen later, starts clean). A terminal made again for it (React's development
 * double effects) shows it again.
 */
let keptFor: Sandbox | undefined;

/**
 * Keeps what the terminal shows (its last KEPT_ROWS rows, serialized with their colours) in the tab, and
 * shows it again when the terminal opens after a reload: what the user ran there is not lost. Returns
 * the cleanup.
 */
function keepAcrossReloads(term: XTerm, sandbox: Sandbox): () => void {
  const serialize = new SerializeAddon();
  term.loadAddon(serialize);
  keptFor ??= sandbox;
  const kept = keptFor === sandbox ? readTabValue(KEPT) : undefined;
  if (kept)
    term.write(`${kept}\r\n${DIM}── the page was reloaded: the lines above are from before ──${RESET}\r\n`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const keep = () => {
    clearTimeout(timer);
    timer = undefined;
    let screen = serialize.serialize({ scrollback: KEPT_ROWS });
    if (screen.length > KEPT_MAX_CHARS) screen = serialize.serialize({ scrollback: 100 });
    if (screen.length <= KEPT_MAX_CHARS) writeTabValue(KEPT, screen);
  };
  const written = term.onWriteParsed(() => {
    clearTimeout(timer);
    timer = setTimeout(keep, KEEP_DEBOUNCE_MS);
  });
  const flush = () => timer !== undefined && keep();
  addEventListener('pagehide', flush);
  return () => {
    removeEventListener('pagehide', flush);
    written.dispose();
    // Not kept now: a terminal closed before its writes settled would keep less than it showed.
    clearTimeout(timer);
  };
}

/** The terminal's own shell session (the agent's `cd` and the user's never move each other). */
const SESSION = 'terminal';

/** The prompt for the terminal session's cwd: the workspace root shows as `~`. */
function promptFor(sandbox: Sandbox): string {
  const cwd = sandbox.cwd(SESSION);
  const shown =
    cwd === sandbox.root
      ? '~'
      : cwd.startsWith(`${sandbox.root}/`)
        ? `~${cwd.slice(sandbox.root.length)}`
        : cwd;
  return `\x1b[32muser@tabcode\x1b[0m:\x1b[34m${shown}\x1b[0m$ `;
}

/** just-bash: a line editor whose lines run through `exec`. */
function attachLineEditor(term: XTerm, sandbox: Sandbox): () => void {
  const editor = new LineEditor(promptFor(sandbox));
  let running: AbortController | undefined;
  term.write(`${DIM}${sandbox.info().reason}${RESET}\r\n`);
  term.write(`${DIM}Each line runs in the sandbox's shell; the agent's commands show here too.${RESET}\r\n`);
  term.write(editor.render());
  const run = async (line: string) => {
    if (line.trim() === 'clear') {
      term.clear();
    } else {
      running = new AbortController();
      let last = '\n';
      await sandbox.exec(line, {
        origin: 'user',
        session: SESSION,
        signal: running.signal,
        onOutput: (chunk, stream) => {
          term.write(stream === 'stderr' ? `${RED}${chunk}${RESET}` : chunk);
          last = chunk;
        },
      });
      running = undefined;
      if (!last.endsWith('\n')) term.write('\r\n');
    }
    editor.busy = false;
    editor.setPrompt(promptFor(sandbox));
    term.write(editor.render());
  };
  const input = term.onData((data) => {
    for (const action of editor.feed(data)) {
      if (action.type === 'write') term.write(action.text);
      else if (action.type === 'clear-screen') term.clear();
      else if (action.type === 'interrupt') running?.abort();
      else void run(action.line);
    }
  });
  const agent = showAgentRuns(term, sandbox, () => {
    if (editor.busy) return '';
    editor.setPrompt(promptFor(sandbox));
    return editor.render();
  });
  return () => {
    running?.abort();
    input.dispose();
    agent();
  };
}

/** WebContainer: keys to `jsh`, its output back; restarted on Enter after it exits. */
function attachShell(term: XTerm, sandbox: Sandbox, open: NonNullable<Sandbox['openShell']>): () => void {
  let shell: InteractiveShell | undefined;
  let lastLine = '';
  let stopped = false;
  let offOutput = () => {};
  const start = async () => {
    shell = await open({ cols: term.cols, rows: term.rows });
    const current = shell;
    offOutput = current.onOutput((chunk) => {
      term.write(chunk);
      const nl = chunk.lastIndexOf('\n');
      lastLine = nl >= 0 ? chunk.slice(nl + 1) : lastLine + chunk;
    });
    void current.exit.then((code) => {
      if (stopped || shell !== current) return;
      shell = undefined;
      offOutput();
      term.write(`\r\n${DIM}[shell exited with code ${code}; press Enter for a new one]${RESET}\r\n`);
    });
  };
  const input = term.onData((data) => {
    if (shell) shell.write(data);
    else if (data.includes('\r')) void start();
  });
  const resize = term.onResize((size) => shell?.resize(size));
  const agent = showAgentRuns(term, sandbox, () => lastLine);
  void start().catch((err: unknown) => {
    term.write(`${RED}Could not start a shell: ${messageOf(err)}${RESET}\r\n`);
  });
  return () => {
    stopped = true;
    offOutput();
    input.dispose();
    resize.dispose();
    agent();
    shell?.kill();
  };
}

/** xterm's colours for the page's theme (it draws on a canvas: CSS variables do not reach it). */
const TERMINAL_THEMES = {
  dark: {
    background: '#16181d',
    foreground: '#d8dee9',
    cursor: '#d8dee9',
    selectionBackground: '#3a4a66',
    brightBlack: '#9aa3b2',
  },
  light: {
    background: '#fbfbfc',
    foreground: '#1f2328',
    cursor: '#1f2328',
    selectionBackground: '#c8d7f5',
    brightBlack: '#5c6370',
  },
};

/** Whether the page is dark now: the user's pick, else the system's. */
function isDark(theme: TerminalProps['theme']): boolean {
  if (theme === 'dark') return true;
  if (theme === 'light') return false;
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function Terminal({ sandbox, autoFocus = false, theme = 'system' }: TerminalProps) {
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<XTerm | null>(null);
  const [mode, setMode] = useState<Mode>('starting');
  const themeRef = useRef(theme);
  themeRef.current = theme;

  // The theme follows the page's: the user's pick, or the system's as it changes.
  useEffect(() => {
    const apply = () => {
      if (termRef.current) termRef.current.options.theme = TERMINAL_THEMES[isDark(theme) ? 'dark' : 'light'];
    };
    apply();
    if (theme !== 'system' || typeof matchMedia !== 'function') return;
    const query = matchMedia('(prefers-color-scheme: dark)');
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [theme]);

  useEffect(() => {
    const el = host.current;
    if (!sandbox || !el) return;
    const term = new XTerm({
      convertEol: true,
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      fontSize: 13,
      scrollback: 5_000,
      theme: TERMINAL_THEMES[isDark(themeRef.current) ? 'dark' : 'light'],
      // Programs' colours (and dim text) are adjusted to stay readable on either background (WCAG AA).
      minimumContrastRatio: TERMINAL_MIN_CONTRAST,
    });
    termRef.current = term;
    // Output never types for the user: xterm's replies to queries in it are dropped.
    dropTerminalQueries(term);
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    const refit = () => {
      if (el.clientWidth > 0 && el.clientHeight > 0) fit.fit();
    };
    refit();
    const observer = new ResizeObserver(refit);
    observer.observe(el);
    const unkeep = keepAcrossReloads(term, sandbox);
    const detach = sandbox.openShell
      ? attachShell(term, sandbox, sandbox.openShell.bind(sandbox))
      : attachLineEditor(term, sandbox);
    setMode(sandbox.openShell ? 'shell' : 'line');
    if (autoFocus) term.focus();
    return () => {
      observer.disconnect();
      detach();
      unkeep();
      term.dispose();
      termRef.current = null;
      setMode('starting');
    };
  }, [sandbox, autoFocus]);

  return (
    <div
      className="terminal-pane"
      data-testid="terminal"
      data-mode={mode}
      data-theme={isDark(theme) ? 'dark' : 'light'}
    >
      {!sandbox && <div className="terminal-waiting muted">Starting the sandbox…</div>}
      <div className="terminal-host" ref={host} />
    </div>
  );
}
