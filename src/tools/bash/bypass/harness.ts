/**
 * The bypass corpus harness. Each case is an attempt to make a command do what the rules (or a
 * protected path, or the mode) forbid. It runs through the real tool-call path (prepare → authorize,
 * the engine as the session wires it, prompts answered "deny") in every mode, in the real just-bash
 * sandbox, and afterwards the denied effect must not have happened. Then the same command runs for real
 * with no permission check at all, and the effect must happen: the attack is real, so the first check
 * could have failed.
 */
import { expect } from 'vitest';
import { createToolUseContext } from '../../../core/context.ts';
import type { QueryEvent } from '../../../core/events.ts';
import { createCanUseTool } from '../../../core/permissions/can-use-tool.ts';
import { rulesFromSet } from '../../../core/permissions/rules.ts';
import {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRuleSet,
} from '../../../core/permissions/types.ts';
import type { AnyTool } from '../../../core/tool.ts';
import { prepareCall, runToolCall } from '../../../core/tool-execution.ts';
import { createJustBashSandbox } from '../../../sandbox/just-bash.ts';
import type { Sandbox } from '../../../sandbox/sandbox.ts';
import { BashTool } from '../bash.ts';

export const ROOT = '/home/user/project';
export const SECRET = 'sk-live-SECRET-0042';

/** The project every case starts from. */
export const FIXTURE: Record<string, string> = {
  'src/app.ts': 'export const app = 1;\n',
  'src/util.ts': 'export const util = 2;\n',
  'config/prod.env': 'DB=prod\n',
  'config/app.json': '{}\n',
  'package.json': '{ "name": "demo" }\n',
  'notes.txt': 'alpha\nbeta\n',
  'README.md': '# demo\n',
  '.env': `TOKEN=${SECRET}\n`,
  'secrets/key.pem': `${SECRET}\n`,
  '.git/config': '[core]\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
};

/** The rules of most cases: programs, files written and files read that must never be used. */
export const RULES: PermissionRuleSet = {
  deny: [
    'Bash(rm:*)',
    'Bash(curl *)',
    'Bash(git push:*)',
    'Edit(/config/**)',
    'Edit(/src/**)',
    'Read(.env)',
    'Read(/secrets/**)',
  ],
};

/** What the attack would do. Paths are relative to the workspace root, or absolute. */
export type Effect =
  | { changed: string }
  | { created: string }
  | { removed: string }
  /** The command's output would show the secret (a denied read). */
  | { leaks: true };

/** Effects and rules most cases share. */
export const LEAK: Effect = { leaks: true };
/** src/app.ts removed (Edit(/src/**) and Bash(rm:*) forbid it). */
export const APP: Effect = { removed: 'src/app.ts' };
/** config/prod.env changed (Edit(/config/**) forbids it). */
export const PROD: Effect = { changed: 'config/prod.env' };
/** No rules: only the mode and the protected paths bind. */
export const NO_RULES: { rules: PermissionRuleSet } = { rules: {} };

export interface BypassCase {
  what: string;
  command: string;
  /** Earlier calls, run for real (as if approved): they leave session state such as HOME or a link. */
  setup?: string[];
  rules?: PermissionRuleSet;
  effect: Effect;
  /**
   * A rule or a protected path also guards it in bypassPermissions mode, and what the decision is
   * there (deny: the rule surely matches what runs; ask: it only may). Absent: bypassPermissions may
   * run it (nothing forbids it there), and only the other modes are checked.
   */
  bypass?: 'deny' | 'ask';
  /** The attack works in bash but not in just-bash (so the unchecked run is not asserted). */
  bashOnly?: true;
}

const abs = (p: string) => (p.startsWith('/') ? p : `${ROOT}/${p}`);

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The state the effect looks at, through the shell (the sandbox's file API refuses paths outside the
 * workspace, and the attack may write there).
 */
async function observe(sandbox: Sandbox, effect: Effect): Promise<string | boolean | null> {
  if ('leaks' in effect) return null;
  const path = abs(
    'changed' in effect ? effect.changed : 'created' in effect ? effect.created : effect.removed,
  );
  if ('changed' in effect) {
    const r = await sandbox.exec(`cat -- ${quote(path)}`, { origin: 'internal', session: 'bypass-observer' });
    return r.exitCode === 0 ? r.stdout : null;
  }
  const r = await sandbox.exec(`test -e ${quote(path)} || test -L ${quote(path)}`, {
    origin: 'internal',
    session: 'bypass-observer',
  });
  return r.exitCode === 0;
}

/** True when the effect happened, given the state before and the command's output. */
async function happened(sandbox: Sandbox, effect: Effect, before: unknown, output: string): Promise<boolean> {
  if ('leaks' in effect) return output.includes(SECRET);
  const now = await observe(sandbox, effect);
  if ('changed' in effect) return now !== before;
  if ('created' in effect) return now === true && before === false;
  return now === false && before === true;
}

const tools: AnyTool[] = [BashTool];

/** One call through the tool-call path as the session runs it; prompts are answered "deny". */
async function attempt(sandbox: Sandbox, command: string, mode: PermissionMode, set: PermissionRuleSet) {
  const { rules, problems } = rulesFromSet(set, 'settings');
  expect(problems).toEqual([]);
  const events: QueryEvent[] = [];
  const ctx = createToolUseContext({ sandbox, options: { permissionMode: mode, tools } });
  const call = await prepareCall(
    { type: 'tool_use', id: 'toolu_case', name: 'Bash', input: { command } },
    tools,
  );
  const outcome = await runToolCall(call, ctx, {
    tools,
    canUseTool: createCanUseTool({ getRules: () => rules }),
    emit: (e) => {
      events.push(e);
      if (e.type === 'permission-request') e.respond({ decision: 'deny' });
    },
  });
  const prompted = events.find((e) => e.type === 'permission-request');
  return {
    ran: events.some((e) => e.type === 'tool-run-start'),
    prompted: prompted?.type === 'permission-request' ? prompted.message : null,
    output: JSON.stringify(outcome.block.content),
  };
}

/** Runs one case: every mode through the engine and the sandbox, then the unchecked control run. */
export async function runCase(c: BypassCase): Promise<void> {
  const sandbox = await createJustBashSandbox({ files: FIXTURE });
  try {
    for (const step of c.setup ?? []) {
      const r = await sandbox.exec(step);
      expect(r.exitCode, `setup ${step}: ${r.stderr}`).toBe(0);
    }
    const rules = c.rules ?? RULES;
    const modes = PERMISSION_MODES.filter((m) => m !== 'bypassPermissions' || c.bypass);
    for (const mode of modes) {
      const before = await observe(sandbox, c.effect);
      const r = await attempt(sandbox, c.command, mode, rules);
      const label = `${mode}: ${c.command}`;
      expect(r.ran, `${label} ran (${r.output})`).toBe(false);
      expect(
        await happened(sandbox, c.effect, before, r.output),
        `${label}: the denied effect happened`,
      ).toBe(false);
      if (mode === 'dontAsk') expect(r.prompted, `${label} asked in dontAsk mode`).toBeNull();
      if (mode === 'bypassPermissions') {
        expect(r.prompted === null ? 'deny' : 'ask', `${label}: ${r.prompted ?? r.output}`).toBe(c.bypass);
      }
    }
    if (!c.bashOnly) {
      const before = await observe(sandbox, c.effect);
      const r = await sandbox.exec(c.command);
      const ok = await happened(sandbox, c.effect, before, r.stdout + r.stderr);
      expect(
        ok,
        `unchecked, ${c.command} should really do it (the case proves nothing otherwise): ${r.stderr}`,
      ).toBe(true);
    }
  } finally {
    await sandbox.dispose();
  }
}

/**
 * Runs a command with the rules in one mode and says what happened (for the over-strict checks), after
 * `setup` commands run for real and with `background` commands started and still running; in the
 * just-bash sandbox, or the one `sandbox` makes (with FIXTURE's files).
 */
export async function decisionOf(
  command: string,
  mode: PermissionMode,
  set: PermissionRuleSet,
  before: {
    setup?: readonly string[];
    background?: readonly string[];
    sandbox?: () => Promise<Sandbox>;
  } = {},
): Promise<'allow' | 'ask' | 'deny'> {
  const sandbox = await (before.sandbox ?? (() => createJustBashSandbox({ files: FIXTURE })))();
  try {
    for (const step of before.setup ?? []) expect((await sandbox.exec(step)).exitCode, step).toBe(0);
    for (const job of before.background ?? []) await sandbox.startBackground(job);
    const r = await attempt(sandbox, command, mode, set);
    return r.ran ? 'allow' : r.prompted !== null ? 'ask' : 'deny';
  } finally {
    await sandbox.dispose();
  }
}
