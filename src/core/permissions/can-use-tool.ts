/**
 * Wiring of the engine into the loop: the `canUseTool` the agent session passes to `query()`, and the
 * hook that turns an "allow always" answer into a rule.
 */
import type { ToolUseContext } from '../context.ts';
import type { PermissionAnswer, QueryEvent } from '../events.ts';
import type { CanUseToolFn } from '../tool-execution.ts';
import { decidePermission } from './engine.ts';
import { rulesFromSet } from './rules.ts';
import type { PermissionContext, PermissionMode, PermissionRule, TreeEntry } from './types.ts';

export interface CanUseToolOptions {
  /** The rules in force, read on every call (so a rule added at a prompt applies to the next call). */
  getRules: () => readonly PermissionRule[];
  /** The mode in force, read on every call; default: the context's `options.permissionMode`. */
  getMode?: () => PermissionMode;
}

/** A shell session no command ever runs in: its state is what every session starts with. */
export const PRISTINE_SESSION = 'tabcode-permissions-pristine';

/** The PATH directories each sandbox's sessions start with: they hold the sandbox's own programs. */
const startPath = new WeakMap<object, readonly string[]>();

function trustedPathOf(sandbox: ToolUseContext['sandbox']): readonly string[] {
  let dirs = startPath.get(sandbox);
  if (!dirs) {
    try {
      dirs = (sandbox.shellState(PRISTINE_SESSION).env.PATH ?? '').split(':').filter(Boolean);
    } catch {
      dirs = [];
    }
    startPath.set(sandbox, dirs);
  }
  return dirs;
}

/** Whether a background process of the sandbox still runs (true when the sandbox cannot say). */
function backgroundRunning(sandbox: ToolUseContext['sandbox']): boolean {
  try {
    return sandbox.listBackground().some((p) => p.status === 'running');
  } catch {
    return true;
  }
}

/**
 * Everything below `dir` (breadth first), or null when it holds more than `limit` entries or a symbolic
 * link (which may lead anywhere), or cannot be read. Never throws.
 */
async function listTree(
  sandbox: ToolUseContext['sandbox'],
  dir: string,
  limit: number,
): Promise<TreeEntry[] | null> {
  const out: TreeEntry[] = [];
  const queue = [dir];
  try {
    while (queue.length > 0) {
      const at = queue.shift() as string;
      for (const entry of await sandbox.readdir(at)) {
        if (entry.type === 'symlink' || out.length >= limit) return null;
        const abs = `${at === '/' ? '' : at}/${entry.name}`;
        out.push({ abs, directory: entry.type === 'directory' });
        if (entry.type === 'directory') queue.push(abs);
      }
    }
  } catch {
    return null;
  }
  return out;
}

/**
 * The engine's view of one call's context: mode, paths, the sandbox's realpath (symlinks) and the
 * shell session Bash runs in (read now, so a previous call's `export HOME=...` counts).
 */
function permissionContext(options: CanUseToolOptions, ctx: ToolUseContext): PermissionContext {
  const sandbox = ctx.sandbox;
  let shell: PermissionContext['shell'];
  try {
    shell = sandbox.shellState?.();
  } catch {
    shell = undefined;
  }
  return {
    mode: options.getMode?.() ?? ctx.options.permissionMode,
    root: sandbox.root,
    cwd: ctx.options.cwd,
    ...(shell ? { shell, trustedPath: trustedPathOf(sandbox) } : {}),
    ...(sandbox.realpath
      ? { realpath: (abs: string) => sandbox.realpath?.(abs) ?? Promise.resolve(abs) }
      : {}),
    exists: (abs: string) => sandbox.exists(abs),
    readFile: (abs: string) => sandbox.readFile(abs),
    ...(sandbox.existsAnywhere
      ? { existsAnywhere: (abs: string) => sandbox.existsAnywhere?.(abs) ?? Promise.resolve(true) }
      : {}),
    isDirectory: async (abs: string) =>
      (await sandbox.exists(abs)) && (await sandbox.stat(abs)).type === 'directory',
    // A background process may add a link below a tree between the check and the run: none is listed.
    ...(backgroundRunning(sandbox)
      ? {}
      : { listTree: (abs: string, limit: number) => listTree(sandbox, abs, limit) }),
  };
}

/**
 * The permission engine as the loop's `canUseTool`: one decision per call, on the matcher the prepare
 * stage made. Never throws (a failure denies).
 */
export function createCanUseTool(options: CanUseToolOptions): CanUseToolFn {
  return (tool, input, ctx, prepared) =>
    decidePermission({
      tool,
      input,
      rules: withTurnRules(options.getRules(), ctx.options.allowedTools),
      permCtx: permissionContext(options, ctx),
      ...(prepared !== undefined ? { prepared: prepared.matcher } : {}),
    });
}

/** The rules in force plus the turn's allow rules (a skill's allowed-tools); unparseable ones are left out. */
function withTurnRules(
  rules: readonly PermissionRule[],
  allowedTools: readonly string[] | undefined,
): readonly PermissionRule[] {
  if (!allowedTools?.length) return rules;
  return [...rules, ...rulesFromSet({ allow: allowedTools }, 'session').rules];
}

/** Something that can take an "allow always" rule (the PermissionStore). */
export interface AllowAlwaysSink {
  addAllowAlwaysRule(text: string): { ok: boolean; reason?: string };
}

/**
 * A permission-request event whose `respond` first records an "allow always" rule (kept for the
 * project when the store persists, else for the session), so it applies from the next call on. A
 * sub-agent's request (inside a `subagent-event`) gets the same. Other events pass through unchanged.
 */
export function recordAllowAlways<E extends QueryEvent | { type: string }>(
  event: E,
  sink: AllowAlwaysSink,
): E {
  if (event.type === 'subagent-event') {
    const wrapped = event as Extract<QueryEvent, { type: 'subagent-event' }>;
    const inner = recordAllowAlways(wrapped.event, sink);
    return (inner === wrapped.event ? event : { ...wrapped, event: inner }) as E;
  }
  if (event.type !== 'permission-request') return event;
  const request = event as Extract<QueryEvent, { type: 'permission-request' }>;
  const respond = (answer: PermissionAnswer): void => {
    if (answer.decision === 'allow-always') {
      const added = sink.addAllowAlwaysRule(answer.rule);
      if (!added.ok)
        console.warn(`tabcode: the rule ${answer.rule} could not be added: ${added.reason ?? ''}`);
    }
    request.respond(answer);
  };
  return { ...request, respond } as E;
}
