/**
 * Wiring of the engine into the loop: the `canUseTool` the agent session passes to `query()`, and the
 * hook that turns an "allow always" answer into a session rule.
 */
import type { ToolUseContext } from '../context.ts';
import type { PermissionAnswer, QueryEvent } from '../events.ts';
import type { CanUseToolFn } from '../tool-execution.ts';
import { checkDenyRules, decidePermission } from './engine.ts';
import type { PermissionBehavior, PermissionContext, PermissionMode, PermissionRule } from './types.ts';

export interface CanUseToolOptions {
  /** The rules in force, read on every call (so a rule added at a prompt applies to the next call). */
  getRules: () => readonly PermissionRule[];
  /** The mode in force, read on every call; default: the context's `options.permissionMode`. */
  getMode?: () => PermissionMode;
}

/** The engine's view of one call's context: mode, paths, and the sandbox's realpath (symlinks). */
function permissionContext(options: CanUseToolOptions, ctx: ToolUseContext): PermissionContext {
  const sandbox = ctx.sandbox;
  return {
    mode: options.getMode?.() ?? ctx.options.permissionMode,
    root: sandbox.root,
    cwd: ctx.options.cwd,
    ...(sandbox.realpath
      ? { realpath: (abs: string) => sandbox.realpath?.(abs) ?? Promise.resolve(abs) }
      : {}),
  };
}

/**
 * The permission engine as the loop's `canUseTool`. Never throws (a failure denies). Its `checkDeny`
 * (deny rules only) runs before the tool validates its input.
 */
export function createCanUseTool(options: CanUseToolOptions): CanUseToolFn {
  const canUseTool: CanUseToolFn = (tool, input, ctx) =>
    decidePermission({ tool, input, rules: options.getRules(), permCtx: permissionContext(options, ctx) });
  canUseTool.checkDeny = (tool, input, ctx) =>
    checkDenyRules({ tool, input, rules: options.getRules(), permCtx: permissionContext(options, ctx) });
  return canUseTool;
}

/** Something that can take a session rule (the PermissionStore). */
export interface SessionRuleSink {
  addSessionRule(behavior: PermissionBehavior, text: string): { ok: boolean };
}

/**
 * A permission-request event whose `respond` first records an "allow always" rule as a session rule,
 * so it applies from the next call on. Other events pass through unchanged.
 */
export function recordAllowAlways<E extends QueryEvent | { type: string }>(
  event: E,
  sink: SessionRuleSink,
): E {
  if (event.type !== 'permission-request') return event;
  const request = event as Extract<QueryEvent, { type: 'permission-request' }>;
  const respond = (answer: PermissionAnswer): void => {
    if (answer.decision === 'allow-always') {
      const added = sink.addSessionRule('allow', answer.rule);
      if (!added.ok) console.warn(`tabcode: the rule ${answer.rule} could not be added`);
    }
    request.respond(answer);
  };
  return { ...request, respond } as E;
}
