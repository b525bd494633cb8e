/**
 * The words of permission decisions: what the model reads in an is_error result, what the prompt says,
 * and the rule "allow always" offers.
 */
import { relativeInside } from './paths.ts';
import type { PermissionRule } from './types.ts';

/** `Bash(npm test:*)` (settings) — a rule and where it came from. */
export function describeRule(rule: PermissionRule): string {
  return `${rule.text} (${rule.source} rule)`;
}

/**
 * The characters of `text` outside printable ASCII, each shown with its code point (`U+200B`), or
 * null when there are none: zero-width and look-alike letters then show in the prompt.
 */
export function revealHidden(text: string): string | null {
  const found = [...new Set([...text].filter((c) => /[^\x20-\x7e\t\n]/.test(c)))];
  if (found.length === 0) return null;
  const show = (c: string) => {
    const cp = `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return /\p{L}|\p{N}|\p{P}|\p{S}/u.test(c) ? `${c} ${cp}` : cp;
  };
  return found.slice(0, 8).map(show).join(', ');
}

/** A command or path shown inline. */
export const code = (text: string): string => `\`${text.length > 200 ? `${text.slice(0, 199)}…` : text}\``;

/** What the model reads when the user denied a call at the prompt (Claude Code's wording, plus feedback). */
export function userDenialMessage(toolName: string, feedback?: string): string {
  const said = feedback?.trim();
  return [
    `The user doesn't want to proceed with this tool use. The ${toolName} call was rejected and did not run (nothing was changed).`,
    said
      ? `The user said:\n${said}`
      : 'STOP what you are doing and wait for the user to tell you how to proceed.',
  ].join(' ');
}

/** What the model reads when a rule denied a call. */
export function ruleDenialMessage(toolName: string, rule: PermissionRule, subject?: string): string {
  const what = subject ? ` for ${subject}` : '';
  return `Permission to use ${toolName}${what} has been denied by the ${rule.source} deny rule ${rule.text}. Do not try to get around this rule; if the task needs it, ask the user to change their permission rules.`;
}

/** What the model reads when plan mode refused a call that is not read-only. */
export function planModeMessage(toolName: string, subject?: string): string {
  const what = subject ? ` (${subject})` : '';
  return `Plan mode is on: only read-only tools may run, so ${toolName}${what} was refused and nothing was changed. Finish exploring and present your plan to the user; they can switch the permission mode to let you make changes.`;
}

/** An ask turned into a deny by dontAsk mode. */
export function dontAskMessage(toolName: string, askMessage: string): string {
  const why = askMessage.replace(/\.$/, '').replace(/^[A-Z](?=[a-z ])/, (c) => c.toLowerCase());
  return `${toolName} needs the user's approval (${why}), and the permission mode is dontAsk, which never asks: the call was denied. An allow rule in the permission settings can let it run.`;
}

const DESTRUCTIVE = new Set([
  'rm',
  'rmdir',
  'mv',
  'dd',
  'chmod',
  'chown',
  'kill',
  'pkill',
  'truncate',
  'shred',
]);
const PLAIN_WORD = /^[a-z][a-z0-9:._-]*$/i;
/** Programs whose second word is a sub-command (`npm test`, `git status`). */
const SUBCOMMANDS = new Set(
  'git npm npx pnpm yarn bun deno cargo go docker kubectl pip pip3 uv poetry make gh brew apt apt-get node python python3'.split(
    ' ',
  ),
);

/**
 * The Bash rule "allow always" offers for a command: `npm test:*` style (program and sub-command), the
 * exact command for destructive programs, `program:*` otherwise.
 */
export function suggestBashRule(commandText: string): string {
  const words = commandText.split(' ');
  const [program, second] = words;
  if (words.length === 1) return `Bash(${program})`;
  if (DESTRUCTIVE.has(program)) return `Bash(${commandText})`;
  if (second !== undefined && SUBCOMMANDS.has(program) && PLAIN_WORD.test(second)) {
    return `Bash(${program} ${second}:*)`;
  }
  return `Bash(${program}:*)`;
}

/**
 * The file rule "allow always" offers: the file's directory in the workspace (`Edit(/src/**)`), or the
 * file itself at the workspace root; absolute (`//path`) outside it.
 */
export function suggestFileRule(toolName: string, abs: string, root: string): string {
  const rel = relativeInside(root, abs);
  if (rel === null) return `${toolName}(/${abs})`;
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? `${toolName}(/${rel})` : `${toolName}(/${rel.slice(0, slash)}/**)`;
}
