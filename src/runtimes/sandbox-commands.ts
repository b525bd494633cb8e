/**
 * The runtime commands of the just-bash sandbox — `node`, `npm`, `npx` — as just-bash custom commands,
 * so they work in pipes, `&&`, `$?`, redirections and the terminal like any command.
 *
 * `node` runs the program in a runtime worker (RuntimePool) that holds a mirror of the sandbox's files;
 * the files it writes are applied to the sandbox as they arrive, and are all there when the command
 * returns. Output goes to the command's result, or, when the live-output transform gave the command a
 * sink (its output reaches the terminal directly), into the sink as it is printed. `npm` is the module
 * in ./npm, with its scripts run by this shell (and streamed the same way).
 */
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { messageOf } from '../core/errors.ts';
import {
  LIVE_ENV,
  type LiveOutputs,
  type LiveStream,
  liveScript,
  liveTokenOf,
} from '../sandbox/live-output.ts';
import { normalizePath } from '../sandbox/sandbox.ts';
import { parentOf } from '../sandbox/shared.ts';
import { NODE_VERSION } from './node/version.ts';
import { createIndexedDbTarballCache, createPackumentCache } from './npm/cache.ts';
import type { TarballCache } from './npm/host.ts';
import { createJustBashHost } from './npm/just-bash-host.ts';
import { runNpm, runNpx } from './npm/npm.ts';
import { FileMirror } from './shared/mirror.ts';
import type { FileChange } from './shared/protocol.ts';
import { RuntimePool, type WorkerLike } from './shared/runtime-pool.ts';

/** How long the python3 worker may take to load Pyodide. */
const PYTHON_READY_TIMEOUT_MS = 180_000;

/** Heap limit of a node program unless --max-old-space-size says otherwise. */
export const NODE_MEMORY_LIMIT_BYTES = 512 * 1024 * 1024;

export interface RuntimeWorkers {
  /** Starts a node worker (the page: a Web Worker; tests: an in-process one). Absent: no `node`. */
  node?: () => WorkerLike;
  /** Starts a python worker (behind the PYTHON gate). Absent: no `python3`. */
  python?: () => WorkerLike;
}

export interface SandboxRuntimesOptions {
  root: string;
  workers: RuntimeWorkers;
  live: LiveOutputs;
  /** The registry's fetch for npm (default: the page's fetch). */
  fetch?: typeof fetch | null;
  /** Tarball cache for npm (default: IndexedDB). */
  tarballCache?: TarballCache;
}

/** The runtimes of one sandbox: its commands, and the mirror its file system reports changes to. */
export class SandboxRuntimes {
  readonly mirror: FileMirror;
  private readonly node?: RuntimePool;
  /** python3 (gate PYTHON; see ./python/command.ts). */
  private readonly python?: RuntimePool;
  private readonly options: SandboxRuntimesOptions;
  private readonly packuments = createPackumentCache();
  private tarballs?: TarballCache;

  constructor(fs: ConstructorParameters<typeof FileMirror>[0], options: SandboxRuntimesOptions) {
    this.options = options;
    this.mirror = new FileMirror(fs, [options.root, '/tmp']);
    if (options.workers.node) this.node = new RuntimePool(options.workers.node, this.mirror, 'node');
    if (__FEATURE_PYTHON__ && options.workers.python)
      // Pyodide's 9 MB wasm takes long to compile on a slow machine.
      this.python = new RuntimePool(options.workers.python, this.mirror, 'python3', PYTHON_READY_TIMEOUT_MS);
  }

  /** Which runtime commands exist here. */
  available(): { node: boolean; npm: boolean; python: boolean } {
    return { node: this.node !== undefined, npm: true, python: this.python !== undefined };
  }

  commands(): Command[] {
    const out: Command[] = [];
    if (this.node) out.push({ name: 'node', trusted: true, execute: (args, ctx) => this.runNode(args, ctx) });
    out.push({ name: 'npm', trusted: true, execute: (args, ctx) => this.runNpm(args, ctx, runNpm) });
    out.push({ name: 'npx', trusted: true, execute: (args, ctx) => this.runNpm(args, ctx, runNpx) });
    // python3 and python (gate PYTHON): the command's code is its own chunk, loaded on first use.
    if (__FEATURE_PYTHON__ && this.python) {
      const pool = this.python;
      const execute = async (args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> => {
        const { runPythonCommand } = await import('./python/command.ts');
        return runPythonCommand(args, ctx, {
          pool,
          root: this.options.root,
          live: this.options.live,
          env: programEnv(ctx),
          stdin: bytesOfStdin(ctx),
          applyChanges: (changes) => this.applyChanges(ctx, changes),
        });
      };
      out.push({ name: 'python3', trusted: true, execute }, { name: 'python', trusted: true, execute });
    }
    return out;
  }

  dispose(): void {
    this.node?.dispose();
    this.python?.dispose();
  }

  private async runNode(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
    if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
      return this.reply(ctx, `${NODE_VERSION}\n`, '', 0);
    }
    const pool = this.node as RuntimePool;
    const token = this.liveToken(ctx);
    const out = { stdout: '', stderr: '' };
    const write = (stream: LiveStream, text: string) => {
      if (token) this.options.live.write(token, stream, text);
      else out[stream] += text;
    };
    const env = programEnv(ctx);
    const outcome = await pool.run(
      {
        args,
        cwd: ctx.cwd,
        env,
        stdin: bytesOfStdin(ctx),
        root: this.options.root,
        memoryLimitBytes: NODE_MEMORY_LIMIT_BYTES,
      },
      {
        output: write,
        applyChanges: (changes) => this.applyChanges(ctx, changes),
        exec: async (request) => {
          if (!ctx.exec)
            return { stdout: '', stderr: 'child_process: this shell cannot run commands\n', exitCode: 127 };
          const r = await ctx.exec(request.command, {
            cwd: request.cwd,
            env: request.env,
            replaceEnv: true,
            stdin: request.stdin,
            signal: ctx.signal,
          });
          return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
        },
        signal: ctx.signal,
      },
    );
    if (outcome.failure) write('stderr', `${outcome.failure}\n`);
    return { stdout: out.stdout, stderr: out.stderr, exitCode: outcome.exitCode };
  }

  private async runNpm(args: string[], ctx: ResolvedCommandContext, run: typeof runNpm): Promise<ExecResult> {
    const token = this.liveToken(ctx);
    this.tarballs ??= this.options.tarballCache ?? createIndexedDbTarballCache();
    const { host, result } = createJustBashHost(ctx, {
      fetch: this.options.fetch,
      cache: this.tarballs,
      packuments: this.packuments,
      onStdout: (text) => token && this.options.live.write(token, 'stdout', text),
      onStderr: (text) => token && this.options.live.write(token, 'stderr', text),
    });
    delete host.env[LIVE_ENV];
    if (token) {
      // A script's commands stream into the same sink as npm's own lines.
      const exec = host.exec.bind(host);
      host.exec = (command, options) => exec(liveScript(token, command), options);
    }
    let code: number;
    try {
      code = await run(args, host);
    } catch (err) {
      host.stderr(`npm error ${messageOf(err)}\n`);
      code = 1;
    }
    const r = result(code);
    return token ? { stdout: '', stderr: '', exitCode: code } : r;
  }

  /** The live sink this command may write to (only one the transform gave it, still open). */
  private liveToken(ctx: ResolvedCommandContext): string | undefined {
    const token = liveTokenOf(ctx.env);
    return token && this.options.live.isOpen(token) ? token : undefined;
  }

  private reply(ctx: ResolvedCommandContext, stdout: string, stderr: string, exitCode: number): ExecResult {
    const token = this.liveToken(ctx);
    if (!token) return { stdout, stderr, exitCode };
    this.options.live.write(token, 'stdout', stdout);
    this.options.live.write(token, 'stderr', stderr);
    return { stdout: '', stderr: '', exitCode };
  }

  /** A program's file changes, applied to the sandbox; paths outside the workspace and /tmp are ignored. */
  private async applyChanges(ctx: ResolvedCommandContext, changes: FileChange[]): Promise<void> {
    const fs = ctx.fs;
    const allowed = (p: string) => {
      const n = normalizePath(p);
      return [this.options.root, '/tmp'].some((r) => n === r || n.startsWith(`${r}/`)) ? n : undefined;
    };
    for (const c of changes) {
      if (c.op === 'rename') {
        const from = allowed(c.from);
        const to = allowed(c.to);
        if (from && to) await fs.mv(from, to);
        continue;
      }
      const path = allowed(c.path);
      if (!path) continue;
      if (c.op === 'file') {
        await fs.mkdir(parentOf(path), { recursive: true });
        await fs.writeFile(path, c.data);
        if (c.mode !== undefined && (c.mode & 0o111) !== 0) await fs.chmod(path, c.mode & 0o777);
      } else if (c.op === 'dir') {
        await fs.mkdir(path, { recursive: true });
      } else if (c.op === 'link') {
        await fs.rm(path, { force: true });
        await fs.symlink(c.target, path);
      } else if (c.op === 'remove') {
        await fs.rm(path, { recursive: true, force: true });
      }
    }
  }
}

/** The environment a program sees: the shell's exported variables, without the live-sink marker. */
function programEnv(ctx: ResolvedCommandContext): Record<string, string> {
  const env: Record<string, string> = ctx.exportedEnv ? { ...ctx.exportedEnv } : Object.fromEntries(ctx.env);
  delete env[LIVE_ENV];
  return env;
}

/** The command's stdin as bytes (just-bash keeps it as a string of one character per byte). */
function bytesOfStdin(ctx: ResolvedCommandContext): Uint8Array {
  const s = ctx.stdin as unknown as string;
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
