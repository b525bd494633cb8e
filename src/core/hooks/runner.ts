/**
 * The hook runner: finds the hooks configured for an event (and tool), runs them at once (commands in
 * the sandbox with the event JSON on stdin, functions in the page), each within its timeout, and
 * merges their answers. A hook that hangs, fails, or prints invalid JSON is reported and the call
 * proceeds, as in Claude Code. Never throws.
 */

import type { Sandbox } from '../../sandbox/sandbox.ts';
import { DEFAULT_HOOK_TIMEOUT_MS } from '../constants.ts';
import { messageOf } from '../errors.ts';
import { matcherMatches } from './config.ts';
import {
  capHookText,
  checkHookOutput,
  HOOK_BLOCKING_EXIT_CODE,
  type ParsedStdout,
  parseHookStdout,
} from './output.ts';
import type {
  HookDefinition,
  HookEventInput,
  HookInput,
  HookOutput,
  HookReport,
  HookRunner,
  HookRunResult,
} from './types.ts';

export interface HookRunnerOptions {
  /** The hooks in force, read at every run (workspace files change, a page registers more). */
  hooks: () => readonly HookDefinition[];
  /** Where command hooks run. */
  sandbox: Pick<Sandbox, 'exec' | 'root'>;
  sessionId: string;
  /** Defaults for the input fields when a run does not give them. */
  cwd?: () => string;
  permissionMode?: () => string;
}

/** The shell session command hooks run in (their `cd` never moves the agent's shell). */
export const HOOK_SHELL_SESSION = 'hooks';

/** A command fed `input` on stdin: the JSON as a single-quoted shell word, piped into a group. */
export function commandWithStdin(command: string, input: string): string {
  const quoted = `'${input.replace(/'/g, `'\\''`)}'`;
  return `printf '%s' ${quoted} | {\n${command}\n}`;
}

interface RawRun {
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  timedOut?: boolean;
  /** A function hook's return value. */
  value?: unknown;
  /** The function threw, or the sandbox failed. */
  thrown?: string;
  aborted?: boolean;
}

/** Resolves after `ms` with 'timeout' (the timer is cleared by `clear`). */
function timer(ms: number): { done: Promise<'timeout'>; clear: () => void } {
  let id: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<'timeout'>((resolve) => {
    id = setTimeout(() => resolve('timeout'), ms);
  });
  return { done, clear: () => clearTimeout(id) };
}

async function runOne(
  hook: HookDefinition,
  input: HookInput,
  signal: AbortSignal,
  sandbox: HookRunnerOptions['sandbox'],
): Promise<RawRun> {
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  // The sandbox stops a command at its timeout; the timer here also bounds a function that never settles.
  const t = timer(timeoutMs + (hook.fn ? 0 : 1_000));
  try {
    const running: Promise<RawRun> = hook.fn
      ? Promise.resolve()
          .then(() => (hook.fn as NonNullable<HookDefinition['fn']>)(input, controller.signal))
          .then((value) => ({ value }))
          .catch((err: unknown) => ({ thrown: messageOf(err) }))
      : sandbox
          .exec(commandWithStdin(hook.command ?? '', JSON.stringify(input)), {
            timeoutMs,
            signal: controller.signal,
            session: HOOK_SHELL_SESSION,
            origin: 'internal',
            env: { CLAUDE_PROJECT_DIR: sandbox.root },
          })
          .then((r) => ({
            exitCode: r.exitCode,
            stdout: r.stdout,
            stderr: r.stderr,
            timedOut: r.timedOut,
            aborted: r.aborted,
          }))
          .catch((err: unknown) => ({ thrown: messageOf(err) }));
    const first = await Promise.race([running, t.done]);
    if (first === 'timeout') {
      controller.abort();
      return { timedOut: true };
    }
    return signal.aborted ? { ...first, aborted: true } : first;
  } finally {
    t.clear();
    signal.removeEventListener('abort', stop);
  }
}

/** The report and the answer of one run. */
function interpret(
  hook: HookDefinition,
  raw: RawRun,
  durationMs: number,
  meta: { toolName?: string; toolUseId?: string },
): { report: HookReport; parsed: ParsedStdout; blockedBy?: string } {
  const base = { event: hook.event, label: hook.label, source: hook.source, durationMs, ...meta };
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  if (raw.timedOut) {
    return {
      report: {
        ...base,
        outcome: 'timeout',
        message: `The hook did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped; the call went on.`,
      },
      parsed: { kind: 'empty' },
    };
  }
  if (raw.thrown !== undefined) {
    return {
      report: { ...base, outcome: 'error', message: `The hook failed: ${capHookText(raw.thrown)}` },
      parsed: { kind: 'empty' },
    };
  }
  if (hook.fn) {
    const parsed = checkHookOutput(raw.value);
    if (parsed.kind === 'invalid')
      return { report: { ...base, outcome: 'invalid-json', message: parsed.problem }, parsed };
    return { report: { ...base, outcome: 'success' }, parsed };
  }
  const exitCode = raw.exitCode ?? 0;
  const stderr = capHookText((raw.stderr ?? '').trim());
  if (exitCode === HOOK_BLOCKING_EXIT_CODE) {
    const reason = stderr || `The hook exited with code 2 (blocked) and printed no reason.`;
    return {
      report: { ...base, outcome: 'blocked', decision: 'block', message: reason, exitCode },
      parsed: { kind: 'empty' },
      blockedBy: reason,
    };
  }
  if (exitCode !== 0) {
    return {
      report: {
        ...base,
        outcome: 'error',
        exitCode,
        message: stderr || `The hook exited with code ${exitCode}; the call went on.`,
      },
      parsed: { kind: 'empty' },
    };
  }
  const parsed = parseHookStdout(raw.stdout ?? '');
  if (parsed.kind === 'invalid')
    return { report: { ...base, outcome: 'invalid-json', exitCode, message: parsed.problem }, parsed };
  return {
    report: {
      ...base,
      outcome: 'success',
      exitCode,
      ...(parsed.kind === 'text' ? { message: parsed.text } : {}),
    },
    parsed,
  };
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** Adds one hook's answer to the merged result. */
function merge(result: HookRunResult, hook: HookDefinition, out: HookOutput, report: HookReport): void {
  const specific = out.hookSpecificOutput;
  if (out.continue === false) {
    result.stop = out.stopReason ?? 'A hook stopped the turn.';
    report.decision = 'stop';
  }
  if (out.systemMessage) report.message = out.systemMessage;
  if (out.decision === 'block') {
    result.blocked = out.reason ?? 'A hook blocked this.';
    report.decision = 'block';
    report.message = result.blocked;
  }
  if (hook.event === 'PreToolUse' && specific) {
    const d = specific.permissionDecision;
    if (d && (!result.permission || RANK[d] > RANK[result.permission])) {
      result.permission = d;
      result.permissionReason = specific.permissionDecisionReason;
    }
    if (d) {
      report.decision = d;
      if (specific.permissionDecisionReason) report.message = specific.permissionDecisionReason;
    }
    if (specific.updatedInput) {
      result.updatedInput = specific.updatedInput;
      report.decision ??= 'rewrite';
    }
  }
  if (specific?.additionalContext) result.context.push(capHookText(specific.additionalContext));
}

/** A runner over `options.hooks()`. */
export function createHookRunner(options: HookRunnerOptions): HookRunner {
  return {
    list: () => [...options.hooks()],
    async run(eventInput: HookEventInput, run = {}): Promise<HookRunResult> {
      const result: HookRunResult = { reports: [], context: [] };
      const event = eventInput.hook_event_name;
      const subject =
        event === 'PreToolUse' || event === 'PostToolUse'
          ? run.toolName
          : event === 'SessionStart'
            ? (eventInput as { source: string }).source
            : undefined;
      let hooks: HookDefinition[];
      try {
        hooks = options
          .hooks()
          .filter(
            (h) => h.event === event && (subject === undefined ? true : matcherMatches(h.matcher, subject)),
          );
      } catch {
        return result;
      }
      if (hooks.length === 0) return result;
      const input = {
        session_id: options.sessionId,
        transcript_path: `tabcode://sessions/${options.sessionId}`,
        cwd: run.cwd ?? options.cwd?.() ?? options.sandbox.root,
        permission_mode: run.permissionMode ?? options.permissionMode?.() ?? 'default',
        ...eventInput,
      } as HookInput;
      const signal = run.signal ?? new AbortController().signal;
      const runs = await Promise.all(
        hooks.map(async (hook) => {
          const started = Date.now();
          const raw = await runOne(hook, input, signal, options.sandbox);
          return {
            hook,
            ...interpret(hook, raw, Date.now() - started, {
              toolName: run.toolName,
              toolUseId: run.toolUseId,
            }),
          };
        }),
      );
      for (const r of runs) {
        result.reports.push(r.report);
        if (r.blockedBy !== undefined) result.blocked = r.blockedBy;
        if (r.parsed.kind === 'json') merge(result, r.hook, r.parsed.output, r.report);
        else if (r.parsed.kind === 'text' && (event === 'UserPromptSubmit' || event === 'SessionStart'))
          result.context.push(r.parsed.text);
      }
      if (result.permission === 'deny')
        result.blocked ??= result.permissionReason ?? 'A PreToolUse hook denied this call.';
      return result;
    },
  };
}
