/**
 * The NpmHost of a just-bash custom command: files, cwd, environment and subcommands from the
 * command's context; the registry over `fetch`; tarballs in the given cache.
 *
 * Wiring (the sandbox does this):
 *   const handlers = npmCommandHandlers({ cache: createIndexedDbTarballCache(), packuments: createPackumentCache() });
 *   new Bash({ customCommands: [defineCommand('npm', handlers.npm), defineCommand('npx', handlers.npx)] });
 * This module imports no just-bash code at run time (types only), so it adds nothing to the chunk that
 * loads the shell.
 */
import type { ExecResult, ResolvedCommandContext } from 'just-bash';
import type { NpmHost, PackumentCache, TarballCache } from './host.ts';
import { runNpm, runNpx } from './npm.ts';

export interface JustBashHostOptions {
  /** The registry's fetch. Default: the global fetch; `null`: no network (npm says it needs the registry). */
  fetch?: typeof fetch | null;
  cache?: TarballCache;
  packuments?: PackumentCache;
  /** Called with npm's own output as it is written (it is also returned in the command's result). */
  onStdout?(text: string): void;
  onStderr?(text: string): void;
}

export interface JustBashHost {
  host: NpmHost;
  /** The command's result: everything written, and `exitCode`. */
  result(exitCode: number): ExecResult;
}

/** Builds the host for one invocation of `npm` / `npx` from its just-bash context. */
export function createJustBashHost(
  ctx: ResolvedCommandContext,
  options: JustBashHostOptions = {},
): JustBashHost {
  let stdout = '';
  let stderr = '';
  const env: Record<string, string> = ctx.exportedEnv ? { ...ctx.exportedEnv } : Object.fromEntries(ctx.env);
  const exec = ctx.exec;
  const fetchImpl =
    options.fetch === null ? undefined : (options.fetch ?? globalThis.fetch?.bind(globalThis));
  const host: NpmHost = {
    cwd: ctx.cwd,
    env,
    fs: ctx.fs,
    async exec(command, opts) {
      if (!exec) return { stdout: '', stderr: 'npm: this shell cannot run subcommands\n', exitCode: 127 };
      // just-bash sets exec's variables without exporting them: programs the script starts (a `node`
      // reading process.env) would not see npm_* otherwise. The values travel in `env`, never in the text.
      const names = Object.keys(opts.env).filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
      const line = names.length ? `export ${names.join(' ')}\n${command}` : command;
      const r = await exec(line, { cwd: opts.cwd, env: opts.env, replaceEnv: true, signal: ctx.signal });
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
    },
    fetch: fetchImpl,
    stdout(text) {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr(text) {
      stderr += text;
      options.onStderr?.(text);
    },
    signal: ctx.signal,
    cache: options.cache,
    packuments: options.packuments,
  };
  return { host, result: (exitCode) => ({ stdout, stderr, exitCode }) };
}

/** `execute` functions for `defineCommand('npm', …)` and `defineCommand('npx', …)`. Never reject. */
export function npmCommandHandlers(options: JustBashHostOptions = {}) {
  const handler =
    (run: typeof runNpm) =>
    async (args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> => {
      const { host, result } = createJustBashHost(ctx, options);
      return result(await run(args, host));
    };
  return { npm: handler(runNpm), npx: handler(runNpx) };
}
