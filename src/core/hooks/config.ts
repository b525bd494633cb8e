/**
 * Hooks from a Claude Code settings file (`.claude/settings.json` in the workspace):
 * `{ "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "…",
 * "timeout": 30 } ] } ] } }`. Each problem is named (and that entry skipped); the rest is used. Pure.
 */
import { z } from 'zod';
import { messageOf } from '../errors.ts';
import { HOOK_EVENTS, type HookDefinition, type HookEventName, type HookSource } from './types.ts';

const commandHook = z.object({
  type: z.literal('command'),
  command: z.string().trim().min(1),
  /** Seconds, as in Claude Code. */
  timeout: z.number().positive().max(3600).optional(),
});
const matcherGroup = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

export interface ParsedHooks {
  hooks: HookDefinition[];
  problems: string[];
}

/** The hooks of a parsed settings object (anything: unknown shapes are reported, never thrown). */
export function hooksFromSettings(settings: unknown, source: HookSource, where: string): ParsedHooks {
  const out: ParsedHooks = { hooks: [], problems: [] };
  if (typeof settings !== 'object' || settings === null || !('hooks' in settings)) return out;
  const hooks = (settings as { hooks: unknown }).hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    out.problems.push(`${where}: "hooks" must be an object of events.`);
    return out;
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      out.problems.push(`${where}: unknown hook event "${event}" (known: ${HOOK_EVENTS.join(', ')}).`);
      continue;
    }
    if (!Array.isArray(groups)) {
      out.problems.push(`${where}: hooks.${event} must be a list of { matcher, hooks }.`);
      continue;
    }
    groups.forEach((group, i) => {
      const g = matcherGroup.safeParse(group);
      if (!g.success) {
        out.problems.push(`${where}: hooks.${event}[${i}] must be { "matcher": "…", "hooks": [ … ] }.`);
        return;
      }
      g.data.hooks.forEach((h, j) => {
        const c = commandHook.safeParse(h);
        if (!c.success) {
          out.problems.push(
            `${where}: hooks.${event}[${i}].hooks[${j}] must be { "type": "command", "command": "…", "timeout"?: seconds }.`,
          );
          return;
        }
        out.hooks.push({
          event: event as HookEventName,
          matcher: g.data.matcher,
          command: c.data.command,
          ...(c.data.timeout !== undefined ? { timeoutMs: Math.round(c.data.timeout * 1000) } : {}),
          source,
          label: c.data.command,
        });
      });
    });
  }
  return out;
}

/** The hooks of a settings file's text; invalid JSON is one problem. */
export function hooksFromSettingsText(text: string, source: HookSource, where: string): ParsedHooks {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return {
      hooks: [],
      problems: [`${where} is not valid JSON: ${messageOf(err)}`],
    };
  }
  return hooksFromSettings(parsed, source, where);
}

/**
 * Whether a hook's matcher takes `subject` (a tool name, or a SessionStart source). Empty or `*`:
 * everything. Plain names joined by `|` match exactly; anything else is a regular expression matched
 * against the whole subject (an invalid one matches only itself).
 */
export function matcherMatches(matcher: string | undefined, subject: string | undefined): boolean {
  const m = matcher?.trim() ?? '';
  if (m === '' || m === '*') return true;
  if (subject === undefined) return false;
  if (/^[A-Za-z0-9_-]+(\|[A-Za-z0-9_-]+)*$/.test(m)) return m.split('|').includes(subject);
  try {
    return new RegExp(`^(?:${m})$`).test(subject);
  } catch {
    return m === subject;
  }
}
