/**
 * Helpers the sandbox backends share: listener sets, terminal-output cleanup, the background-process
 * table and the exit codes of stopped commands. Nothing here touches a file system.
 */

import { messageOf } from '../core/errors.ts';
import {
  type BackgroundOutput,
  type BackgroundProcess,
  normalizePath,
  type SandboxChange,
  SandboxError,
  type SandboxErrorCode,
  type SandboxEvent,
} from './sandbox.ts';

/** Exit code of a command stopped by its timeout (as GNU timeout). */
export const TIMEOUT_EXIT_CODE = 124;
/** Exit code of a command stopped by the user (128 + SIGINT). */
export const ABORT_EXIT_CODE = 130;
/** Characters of command output kept for views that subscribe late (older runs are dropped). */
export const EVENT_HISTORY_CHARS = 100_000;
/** Characters of output kept per background process (older output is dropped). */
export const BACKGROUND_OUTPUT_CAP = 200_000;

/** A set of listeners; a listener that throws is logged and does not stop the others. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('tabcode: a sandbox listener threw', err);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  clear(): void {
    this.listeners.clear();
  }
}

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-character ESC sequences, and C1 CSI.
const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control sequences is the point
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;

/** Removes ANSI escape sequences (colours, cursor moves, OSC titles). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * What a terminal would show for `raw` output, as plain text: escapes removed, `\r\n` → `\n`, and a
 * bare `\r` (a progress line redrawn in place) overwriting the start of its line. Backspaces erase
 * the character before them. Keeps a trailing partial line.
 */
export function terminalToText(raw: string): string {
  const text = stripAnsi(raw).replace(/\r+\n/g, '\n');
  if (!text.includes('\r') && !text.includes('\b')) return text;
  return text
    .split('\n')
    .map((line) => {
      let shown = '';
      for (const segment of line.split('\r')) {
        let seg = '';
        for (const ch of segment) seg = ch === '\b' ? seg.slice(0, -1) : seg + ch;
        shown = seg + shown.slice(seg.length);
      }
      return shown;
    })
    .join('\n');
}

/** A SandboxError for an unknown background process id. */
export function unknownBackground(id: string): SandboxError {
  return new SandboxError('EINVAL', `No background process with id ${id}. Use the listed ids.`);
}

interface BackgroundEntry {
  info: BackgroundProcess;
  output: string;
  dropped: number;
  kill: () => Promise<void>;
}

/**
 * Bookkeeping for background processes: ids (`bg-1-k3f9`, `bg-2-k3f9`...: a count and a tag of this
 * table's own, so after a reload, whose sandbox counts from 1 again, an id the transcript holds never
 * names another command), capped output, status. Backends add an entry when they start a process and
 * report its output and end.
 */
export class BackgroundTable {
  private readonly entries = new Map<string, BackgroundEntry>();
  private seq = 0;
  private readonly tag = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) =>
    (b % 36).toString(36),
  ).join('');

  /** A new running process; `known` keeps an id and start time given elsewhere (a mirror of another table). */
  add(
    command: string,
    cwd: string,
    kill: () => Promise<void>,
    known?: { id: string; startedAt: number },
  ): BackgroundProcess {
    const id = known?.id ?? `bg-${++this.seq}-${this.tag}`;
    const info: BackgroundProcess = {
      id,
      command,
      cwd,
      startedAt: known?.startedAt ?? Date.now(),
      status: 'running',
    };
    this.entries.set(id, { info, output: '', dropped: 0, kill });
    return { ...info };
  }

  append(id: string, chunk: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.output += chunk;
    const over = entry.output.length - BACKGROUND_OUTPUT_CAP;
    if (over > 0) {
      entry.output = entry.output.slice(over);
      entry.dropped += over;
    }
  }

  /** Records the end of a process (a killed one keeps status 'killed'). */
  finish(id: string, exitCode: number): void {
    const entry = this.entries.get(id);
    if (entry?.info.status !== 'running') return;
    entry.info.status = 'exited';
    entry.info.exitCode = exitCode;
  }

  list(): BackgroundProcess[] {
    return [...this.entries.values()].map((e) => ({ ...e.info }));
  }

  read(id: string, since = 0, raw = false): BackgroundOutput {
    const entry = this.entries.get(id);
    if (!entry) throw unknownBackground(id);
    const total = entry.dropped + entry.output.length;
    const from = Math.max(0, Math.min(since, total) - entry.dropped);
    return {
      ...entry.info,
      output: raw ? entry.output.slice(from) : terminalToText(entry.output.slice(from)),
      nextOffset: total,
      dropped: entry.dropped,
    };
  }

  async kill(id: string): Promise<BackgroundProcess> {
    const entry = this.entries.get(id);
    if (!entry) throw unknownBackground(id);
    if (entry.info.status === 'running') {
      entry.info.status = 'killed';
      await entry.kill();
    }
    return { ...entry.info };
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.kill(id).catch(() => undefined)));
  }
}

const MESSAGES: Record<SandboxErrorCode, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File already exists',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ENOTEMPTY: 'Directory not empty',
  EOUTSIDE: 'Outside the workspace',
  EINVAL: 'Invalid argument',
  EIO: 'I/O error',
};

/** The SandboxError code named in an error's message (Node-style "ENOENT: ..."), else 'EIO'. */
export function codeOf(err: unknown): SandboxErrorCode {
  const msg = messageOf(err);
  const m = /\b(ENOENT|EEXIST|EISDIR|ENOTDIR|ENOTEMPTY|EINVAL)\b/.exec(msg);
  return (m?.[1] as SandboxErrorCode | undefined) ?? 'EIO';
}

/** A SandboxError with the standard message for `code` at `path`. */
export function sandboxError(code: SandboxErrorCode, path: string, detail = ''): SandboxError {
  return new SandboxError(code, `${MESSAGES[code]}: ${path}${detail}`, path);
}

/** Any error as a SandboxError about `path` (SandboxErrors pass through). */
export function wrapError(err: unknown, path: string): SandboxError {
  if (err instanceof SandboxError) return err;
  const code = codeOf(err);
  const detail = code === 'EIO' && err instanceof Error ? `: ${err.message}` : '';
  return sandboxError(code, path, detail);
}

/** The EOUTSIDE error for a path that leaves the workspace through a symlink. */
export function outsideViaSymlink(path: string, root: string): SandboxError {
  return new SandboxError(
    'EOUTSIDE',
    `Path ${path} leads outside the workspace (${root}) through a symlink; only files under it can be used.`,
    path,
  );
}

/** `path`'s parent directory ('/' for top-level paths). */
export function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/';
}

/** `path`'s last component. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** True when `abs` is `root` or inside it. */
export function isInside(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root === '/' ? '/' : `${root}/`);
}

/** The change each mutating file-system method makes, from its arguments (`null`: not a mutation). */
const MUTATIONS: Record<string, (args: unknown[]) => SandboxChange[]> = {
  writeFile: (a) => [{ kind: 'write', path: String(a[0]) }],
  appendFile: (a) => [{ kind: 'write', path: String(a[0]) }],
  cp: (a) => [{ kind: 'write', path: String(a[1]) }],
  symlink: (a) => [{ kind: 'write', path: String(a[1]) }],
  link: (a) => [{ kind: 'write', path: String(a[1]) }],
  chmod: (a) => [{ kind: 'write', path: String(a[0]) }],
  utimes: (a) => [{ kind: 'write', path: String(a[0]) }],
  mkdir: (a) => [{ kind: 'mkdir', path: String(a[0]) }],
  rm: (a) => [{ kind: 'remove', path: String(a[0]) }],
  mv: (a) => [{ kind: 'rename', from: String(a[0]), path: String(a[1]) }],
};

/**
 * Wraps a just-bash file system so every change made through it — by the API or by a command — is
 * reported (after it succeeded) with normalized absolute paths. Reads pass through untouched.
 * `journal`, when given, also gets each mutating call's method and arguments, at the same moment.
 */
export function reportChanges<T extends object>(
  fs: T,
  report: (change: SandboxChange) => void,
  journal?: (method: string, args: unknown[]) => void,
): T {
  return new Proxy(fs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const changes = MUTATIONS[String(prop)];
      if (!changes) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        journal?.(String(prop), args);
        for (const c of changes(args)) {
          report({
            ...c,
            ...(c.path ? { path: normalizePath(c.path) } : {}),
            ...(c.from ? { from: normalizePath(c.from) } : {}),
          });
        }
        return result;
      };
    },
  });
}

/**
 * The sandbox's events, kept (capped) for views that subscribe late: a terminal opened after the agent
 * ran commands replays them. Oldest runs go first when the cap is reached.
 */
export class EventLog {
  private events: SandboxEvent[] = [];
  private chars = 0;

  record(event: SandboxEvent): void {
    this.events.push(event);
    if (event.type === 'exec-output') this.chars += event.chunk.length;
    while (this.chars > EVENT_HISTORY_CHARS && this.events.length > 1) {
      const dropped = this.events.shift();
      if (dropped?.type === 'exec-output') this.chars -= dropped.chunk.length;
    }
  }

  list(): SandboxEvent[] {
    return [...this.events];
  }
}

/** An Emitter of sandbox events that also keeps them in an EventLog. */
export class EventEmitter extends Emitter<SandboxEvent> {
  readonly log = new EventLog();

  override emit(event: SandboxEvent): void {
    this.log.record(event);
    super.emit(event);
  }
}

/**
 * The environment to keep after a command: what it ended with, except per-command variables (which
 * return to their previous value, or go).
 */
export function keptEnv(
  ended: Record<string, string>,
  before: Record<string, string>,
  perCommand: Record<string, string> | undefined,
): Record<string, string> {
  const next = { ...ended };
  for (const [key, value] of Object.entries(perCommand ?? {})) {
    if (next[key] !== value) continue;
    if (before[key] === undefined) delete next[key];
    else next[key] = before[key];
  }
  return next;
}
