/**
 * The sandbox worker's side: a real just-bash sandbox (the same code that runs on the page in tests)
 * serving the page's calls, streaming what it needs to keep its own copies current: file changes and
 * events, each command's output, background output, the shell sessions' state after each command, and
 * the workspace's contents for the page's backup (a worker the page had to terminate is replaced by one
 * started from that backup).
 */
import { messageOf } from '../../core/errors.ts';
import { setStorageNamespace } from '../../core/storage-namespace.ts';
import type { FileChange, WorkerToHost } from '../../runtimes/shared/protocol.ts';
import type { WorkerLike } from '../../runtimes/shared/runtime-pool.ts';
import type { JournalEntry } from '../fs-journal.ts';
import { createJustBashSandbox, type JustBashSandboxOptions } from '../just-bash.ts';
import { type ListFilesOptions, type Sandbox, SandboxError } from '../sandbox.ts';
import type {
  CallMethod,
  PageToWorker,
  PortControl,
  SessionState,
  WireError,
  WorkerToPage,
} from './protocol.ts';

export interface HostPort {
  post(message: WorkerToPage, transfer?: Transferable[]): void;
  onMessage(listener: (message: PageToWorker) => void): void;
}

/** Variables the shell keeps itself (not restored into a restarted session). */
const SHELL_OWN = new Set([
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'OPTIND',
  'PPID',
  'UID',
  'EUID',
]);

/** Background processes' output is also looked at this often (for ones started without events). */
const BACKGROUND_POLL_MS = 200;

/** What the sandbox worker can ask of the page while it makes its sandbox. */
export interface SandboxHostTools {
  /** A runtime worker started by the page, reached through a port (python3). */
  spawnViaPage(kind: 'python'): Promise<WorkerLike>;
}

export function serveSandbox(
  port: HostPort,
  create: (
    options: JustBashSandboxOptions,
    tools: SandboxHostTools,
  ) => Promise<Sandbox> = createJustBashSandbox,
): void {
  const spawns = new Map<number, { resolve(worker: WorkerLike): void; reject(err: Error): void }>();
  let nextSpawn = 1;
  const tools: SandboxHostTools = {
    spawnViaPage: (kind) =>
      new Promise<WorkerLike>((resolve, reject) => {
        const id = nextSpawn++;
        spawns.set(id, { resolve, reject });
        port.post({ type: 'spawn', id, kind });
      }),
  };
  let sandbox: Sandbox | undefined;
  // Settles when init has made the sandbox and restored the sessions. Calls that arrive before (a
  // restarted worker is sent the page's next command at once) wait for it instead of failing.
  let markReady: (sb: Sandbox) => void = () => {};
  let markFailed: (err: unknown) => void = () => {};
  const ready = new Promise<Sandbox>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => {});
  const aborts = new Map<number, AbortController>();
  const backgroundOffsets = new Map<string, number>();
  let poll: ReturnType<typeof setInterval> | undefined;
  const pendingBackup = new Set<string>();
  let backupScheduled = false;

  const session = (name = 'agent'): SessionState => {
    const state = (sandbox as Sandbox).shellState(name);
    return { name, cwd: state.cwd, env: state.env };
  };

  const wireError = (err: unknown): WireError =>
    err instanceof SandboxError
      ? { name: 'SandboxError', message: err.message, code: err.code, path: err.path }
      : { name: err instanceof Error ? err.name : 'Error', message: messageOf(err) };

  /**
   * Sends what background processes printed since last time (as printed: the page's copy turns it into
   * text, whole lines at a time), and their ends.
   */
  const pollBackground = () => {
    if (!sandbox) return;
    let running = false;
    for (const proc of sandbox.listBackground()) {
      if (!backgroundOffsets.has(proc.id)) continue;
      const out = sandbox.readBackground(proc.id, { since: backgroundOffsets.get(proc.id), raw: true });
      if (out.output) port.post({ type: 'bg-output', procId: proc.id, text: out.output });
      backgroundOffsets.set(proc.id, out.nextOffset);
      if (out.status === 'running') running = true;
      else {
        port.post({
          type: 'bg-end',
          procId: proc.id,
          exitCode: out.exitCode ?? 1,
          killed: out.status === 'killed',
        });
        backgroundOffsets.delete(proc.id);
      }
    }
    if (!running && poll) {
      clearInterval(poll);
      poll = undefined;
    }
  };

  // The journal sends most changes as they are made; a path it also changed after a read-back began
  // keeps the journal's (newer) version.
  const journaledAt = new Map<string, number>();
  let journalSeq = 0;
  const journal = (entry: JournalEntry) => {
    // While the sandbox is being made it reports its own directories: the page has these files already.
    if (!sandbox) return;
    if (entry.op === 'changed') {
      noteForBackup(entry.path);
      return;
    }
    journalSeq++;
    if (entry.op === 'rename') {
      journaledAt.set(entry.from, journalSeq);
      journaledAt.set(entry.to, journalSeq);
      port.post({ type: 'backup', changes: [entry] });
      return;
    }
    journaledAt.set(entry.path, journalSeq);
    const transfer = entry.op === 'remove' ? [] : [entry.data.buffer as ArrayBuffer];
    port.post({ type: 'backup', changes: [entry] }, transfer);
  };

  const flushBackup = async () => {
    backupScheduled = false;
    const sb = sandbox;
    if (!sb) return;
    const paths = [...pendingBackup].sort();
    pendingBackup.clear();
    const startedAt = journalSeq;
    const changes: FileChange[] = [];
    for (const path of paths) {
      try {
        const st = await sb.stat(path);
        if (st.type === 'file')
          changes.push({ op: 'file', path, data: (await sb.readFileBytes(path)).slice() });
        else if (st.type === 'directory') {
          changes.push({ op: 'dir', path });
          for (const file of await sb.listFiles({ root: path, skipDirs: [] })) {
            changes.push({ op: 'file', path: file, data: (await sb.readFileBytes(file)).slice() });
          }
        }
        // A symlink keeps whatever it points to in the backup (the target is backed up itself).
      } catch {
        changes.push({ op: 'remove', path });
      }
    }
    const current = changes.filter((c) => c.op === 'rename' || (journaledAt.get(c.path) ?? 0) <= startedAt);
    if (current.length) {
      // Copies (slice above) are sent: the file system's own buffers must stay where they are.
      const transfer = current.flatMap((c) => (c.op === 'file' ? [c.data.buffer] : []));
      port.post({ type: 'backup', changes: current }, transfer as Transferable[]);
    }
  };

  const noteForBackup = (path: string | undefined) => {
    if (!path) return;
    pendingBackup.add(path);
    if (!backupScheduled) {
      backupScheduled = true;
      setTimeout(() => void flushBackup(), 0);
    }
  };

  port.onMessage((message) => {
    switch (message.type) {
      case 'init':
        void (async () => {
          try {
            if (message.options.storageNamespace) setStorageNamespace(message.options.storageNamespace);
            const sb = await create(
              {
                files: message.options.files,
                root: message.options.root,
                reason: message.options.reason,
                maxOutputChars: message.options.maxOutputChars,
                journal,
              },
              tools,
            );
            sandbox = sb;
            // A restarted worker goes on where the old one's sessions were: their cwd, and the variables
            // that differ from a fresh session's.
            for (const s of message.options.sessions ?? []) {
              const fresh = sb.shellState(s.name).env;
              const exports = Object.entries(s.env)
                .filter(([k, v]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !SHELL_OWN.has(k) && fresh[k] !== v)
                .map(([k, v]) => `export ${k}=${shellQuote(v)}`);
              await sb.exec([...exports, `cd ${shellQuote(s.cwd)}`].join('\n'), {
                session: s.name,
                origin: 'internal',
              });
            }
            // The backup follows the journal (passed to create below), not these.
            sb.onChange((change) => port.post({ type: 'change', change }));
            sb.onEvent((event) => {
              port.post({ type: 'event', event });
              if (
                (event.type === 'exec-output' || event.type === 'exec-end') &&
                backgroundOffsets.has(event.id)
              ) {
                pollBackground();
              }
            });
            const sessions = ['agent', 'user', ...(message.options.sessions ?? []).map((s) => s.name)];
            port.post({
              type: 'ready',
              info: sb.info(),
              root: sb.root,
              sessions: [...new Set(sessions)].map((name) => session(name)),
            });
            markReady(sb);
          } catch (err) {
            const text = `The sandbox could not start: ${messageOf(err)}`;
            markFailed(new SandboxError('EIO', text));
            port.post({ type: 'fatal', message: text });
          }
        })();
        return;
      case 'ping':
        port.post({ type: 'pong', n: message.n });
        return;
      case 'call':
        void (async () => {
          const controller = new AbortController();
          aborts.set(message.id, controller);
          try {
            const sb = await ready;
            const value = await call(sb, message.method, message.args, controller.signal);
            port.post({ type: 'result', id: message.id, value });
          } catch (err) {
            port.post({ type: 'error', id: message.id, error: wireError(err) });
          } finally {
            aborts.delete(message.id);
          }
        })();
        return;
      case 'exec':
        void (async () => {
          const controller = new AbortController();
          aborts.set(message.id, controller);
          try {
            const sb = await ready;
            const value = await sb.exec(message.command, {
              ...message.options,
              signal: controller.signal,
              ...(message.stream
                ? {
                    onOutput: (text: string, stream: 'stdout' | 'stderr') =>
                      port.post({ type: 'output', id: message.id, text, stream }),
                  }
                : {}),
            });
            port.post({
              type: 'exec-result',
              id: message.id,
              value,
              session: session(message.options.session),
            });
          } catch (err) {
            port.post({ type: 'error', id: message.id, error: wireError(err) });
          } finally {
            aborts.delete(message.id);
          }
        })();
        return;
      case 'background':
        void (async () => {
          try {
            const sb = await ready;
            const value = await sb.startBackground(message.command, message.options);
            backgroundOffsets.set(value.id, 0);
            poll ??= setInterval(pollBackground, BACKGROUND_POLL_MS);
            port.post({
              type: 'background-started',
              id: message.id,
              value,
              session: session(message.options.session),
            });
          } catch (err) {
            port.post({ type: 'error', id: message.id, error: wireError(err) });
          }
        })();
        return;
      case 'abort':
        aborts.get(message.id)?.abort();
        return;
      case 'spawned':
        spawns.get(message.id)?.resolve(portWorker(message.port));
        spawns.delete(message.id);
        return;
      case 'spawn-failed':
        spawns.get(message.id)?.reject(new Error(message.message));
        spawns.delete(message.id);
        return;
      case 'dispose':
        if (poll) clearInterval(poll);
        void sandbox?.dispose();
        return;
    }
  });
}

async function call(sb: Sandbox, method: CallMethod, args: unknown[], signal: AbortSignal): Promise<unknown> {
  const a = args as [string, unknown?, unknown?];
  switch (method) {
    case 'readFile':
      return sb.readFile(a[0]);
    case 'readFileBytes':
      return sb.readFileBytes(a[0]);
    case 'writeFile':
      return sb.writeFile(a[0], a[1] as string | Uint8Array);
    case 'stat':
      return sb.stat(a[0]);
    case 'readdir':
      return sb.readdir(a[0]);
    case 'mkdir':
      return sb.mkdir(a[0], a[1] as { recursive?: boolean });
    case 'rm':
      return sb.rm(a[0], a[1] as { recursive?: boolean; force?: boolean });
    case 'rename':
      return sb.rename(a[0], a[1] as string);
    case 'exists':
      return sb.exists(a[0]);
    case 'realpath':
      if (!sb.realpath) throw new SandboxError('EINVAL', 'realpath is not available here');
      return sb.realpath(a[0]);
    case 'listFiles':
      return sb.listFiles({ ...((a[0] as unknown as ListFilesOptions | undefined) ?? {}), signal });
    case 'killBackground':
      return sb.killBackground(a[0]);
  }
}

/** A runtime worker the page started, as the runtime pool sees a worker: its port, plus control messages. */
export function portWorker(port: MessagePort): WorkerLike {
  const errorListeners: ((event: { message?: string }) => void)[] = [];
  const messageListeners: ((event: { data: WorkerToHost }) => void)[] = [];
  port.addEventListener('message', (event) => {
    const data = event.data as WorkerToHost | PortControl;
    if (data && (data as PortControl).type === '__tabcode_error') {
      for (const l of errorListeners) l({ message: (data as { message: string }).message });
      return;
    }
    for (const l of messageListeners) l({ data: data as WorkerToHost });
  });
  port.start();
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer ?? []),
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message') messageListeners.push(listener as (event: { data: WorkerToHost }) => void);
      else errorListeners.push(listener as (event: { message?: string }) => void);
    },
    terminate() {
      port.postMessage({ type: '__tabcode_terminate' } satisfies PortControl);
      port.close();
    },
  };
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
