/**
 * What a hook run means, by Claude Code's contract:
 * - exit code 0: success. stdout that is a JSON object is the hook's answer (HookOutput); stdout that
 *   looks like JSON but does not parse is reported as invalid and ignored (the call proceeds); other
 *   stdout is plain output (context for the model on UserPromptSubmit and SessionStart).
 * - exit code 2: a blocking error; stderr is the reason (to the model for tool and Stop hooks, to the
 *   user for a prompt).
 * - any other exit code: a non-blocking error, shown to the user; the call proceeds.
 * Pure functions.
 */
import { z } from 'zod';
import { MAX_HOOK_OUTPUT_CHARS } from '../constants.ts';
import { messageOf } from '../errors.ts';
import type { HookOutput } from './types.ts';

/** Exit code that blocks. */
export const HOOK_BLOCKING_EXIT_CODE = 2;

const hookOutputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** Output cut to MAX_HOOK_OUTPUT_CHARS, with a note. */
export function capHookText(text: string): string {
  if (text.length <= MAX_HOOK_OUTPUT_CHARS) return text;
  return `${text.slice(0, MAX_HOOK_OUTPUT_CHARS)}\n… [${text.length - MAX_HOOK_OUTPUT_CHARS} more characters cut]`;
}

export type ParsedStdout =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'json'; output: HookOutput }
  | { kind: 'invalid'; problem: string };

/** Reads a successful hook's stdout. Never throws. */
export function parseHookStdout(stdout: string): ParsedStdout {
  const text = stdout.trim();
  if (text === '') return { kind: 'empty' };
  if (!text.startsWith('{') && !text.startsWith('[')) return { kind: 'text', text: capHookText(text) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      kind: 'invalid',
      problem: `The hook printed invalid JSON (${messageOf(err)}); it was ignored.`,
    };
  }
  return checkHookOutput(value);
}

/** Checks a value as a HookOutput (a function hook's return value, or parsed stdout). Never throws. */
export function checkHookOutput(value: unknown): ParsedStdout {
  if (value === undefined || value === null) return { kind: 'empty' };
  const parsed = hookOutputSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return {
      kind: 'invalid',
      problem: `The hook's JSON does not fit the hook output${where}: ${issue?.message ?? 'invalid'}; it was ignored.`,
    };
  }
  return { kind: 'json', output: parsed.data as HookOutput };
}
