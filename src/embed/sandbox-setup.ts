/**
 * The playground's sandbox: opened with the config's files (never the page's saved project), guarded
 * so that `readOnly` files cannot be changed through it (the agent's file tools and the reader's edits
 * in the Files panel both go through the Sandbox interface), and with `dependencies` installed by the
 * sandbox's own `npm install` before the first prompt. The same patterns become `Edit(...)` deny rules
 * (readOnlyRules in embed-controller.ts), so the permission engine also refuses a Bash command that writes them.
 */
import ignore from 'ignore';
import { messageOf } from '../core/errors.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { SandboxError } from '../sandbox/sandbox.ts';
import { openSandbox, type SandboxPreference } from '../sandbox/select.ts';

/** How long `npm install` of the config's dependencies may take (ms). */
export const DEPENDENCIES_TIMEOUT_MS = 120_000;
/** Characters of npm's output kept in a failure's message. */
const NPM_OUTPUT_TAIL_CHARS = 600;

/**
 * `sandbox` with writes to files matching `patterns` refused (SandboxError EINVAL, a message the model
 * or the reader can act on); everything else passes through. `dispose` runs `close` (the opener's).
 */
export function guardReadOnly(
  sandbox: Sandbox,
  patterns: readonly string[],
  close: () => Promise<void>,
): Sandbox {
  const matcher = ignore().add([...patterns]);
  const relative = (path: string): string | undefined => {
    const abs = path.startsWith('/') ? path : `${sandbox.root}/${path}`;
    const rel = abs.startsWith(`${sandbox.root}/`) ? abs.slice(sandbox.root.length + 1) : undefined;
    return rel?.replace(/\/+$/, '') || undefined;
  };
  const check = (path: string) => {
    const rel = relative(path);
    if (rel && matcher.ignores(rel))
      throw new SandboxError('EINVAL', `${rel} is read-only in this playground: it cannot be changed.`, path);
  };
  /** A folder holding a read-only file cannot be removed or moved either. */
  const checkTree = async (path: string) => {
    check(path);
    if (patterns.length === 0) return;
    const stat = await sandbox.stat(path).catch(() => undefined);
    if (stat?.type !== 'directory') return;
    const abs = path.startsWith('/') ? path : `${sandbox.root}/${path}`;
    for (const file of await sandbox.listFiles({ root: abs, skipDirs: [] })) check(file);
  };
  const guarded: Partial<Sandbox> = {
    async writeFile(path, content) {
      check(path);
      return sandbox.writeFile(path, content);
    },
    async rm(path, options) {
      await checkTree(path);
      return sandbox.rm(path, options);
    },
    async rename(from, to) {
      await checkTree(from);
      check(to);
      return sandbox.rename(from, to);
    },
    dispose: close,
  };
  return new Proxy(sandbox, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in guarded) return guarded[prop as keyof Sandbox];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Opens the playground's sandbox with `files`; guarded when `readOnly` has patterns. */
export async function openPlaygroundSandbox(options: {
  preference: SandboxPreference;
  files?: Record<string, string>;
  readOnly?: readonly string[];
}): Promise<Sandbox> {
  const opened = await openSandbox({ preference: options.preference, files: options.files, store: null });
  return guardReadOnly(opened.sandbox, options.readOnly ?? [], () => opened.close());
}

/** The outcome of installing the config's dependencies. */
export type DependenciesResult = { ok: true; output: string } | { ok: false; message: string };

/**
 * Adds `dependencies` to the project's package.json (created when missing) and runs `npm install` in
 * the sandbox (its registry: `.npmrc` in the project, else npm's). Never throws.
 */
export async function installDependencies(
  sandbox: Sandbox,
  dependencies: Record<string, string>,
  signal?: AbortSignal,
): Promise<DependenciesResult> {
  const info = sandbox.info();
  if (!info.commands.includes('npm') && !info.hasNode)
    return {
      ok: false,
      message: `The ${sandbox.kind} sandbox has no npm: the dependencies were not installed.`,
    };
  try {
    const path = `${sandbox.root}/package.json`;
    let manifest: Record<string, unknown> = { name: 'playground', version: '1.0.0', private: true };
    if (await sandbox.exists(path)) {
      try {
        const parsed = JSON.parse(await sandbox.readFile(path)) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          manifest = parsed as typeof manifest;
      } catch {
        return { ok: false, message: 'package.json is not valid JSON: the dependencies were not installed.' };
      }
    }
    const current = manifest.dependencies;
    manifest.dependencies = {
      ...(typeof current === 'object' && current !== null ? current : {}),
      ...dependencies,
    };
    await sandbox.writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
    const result = await sandbox.exec('npm install --no-audit --no-fund', {
      cwd: sandbox.root,
      timeoutMs: DEPENDENCIES_TIMEOUT_MS,
      signal,
      origin: 'internal',
    });
    const output = `${result.stdout}${result.stderr}`.trim();
    if (result.exitCode === 0) return { ok: true, output };
    const tail = output.slice(-NPM_OUTPUT_TAIL_CHARS);
    return {
      ok: false,
      message: result.timedOut
        ? `npm install took longer than ${DEPENDENCIES_TIMEOUT_MS / 1000} s and was stopped.`
        : `npm install failed (exit ${result.exitCode}): ${tail}`,
    };
  } catch (err) {
    return {
      ok: false,
      message: `The dependencies could not be installed: ${messageOf(err)}`,
    };
  }
}
