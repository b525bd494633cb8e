/**
 * What the prompt box completes at the caret: a slash command while the text is `/word` (nothing
 * typed after it yet), a workspace file after an `@`. Pure functions; the hook in
 * use-prompt-completion.ts keeps the lists.
 */
import type { SlashCommandInfo } from '../agent/slash/types.ts';
import { fuzzyFilter } from './fuzzy.ts';

/**
 * Most files the `@` picker lists (a workspace may hold thousands; typing narrows them). The command
 * menu lists every match: there are a few dozen commands at most, and each must be reachable (the menu
 * scrolls, the arrow keys go through all of it).
 */
export const MENTION_MENU_ROWS = 50;

/** The slash menu's rows for `query`: every command that matches, best first. */
export function commandMenuItems(query: string, commands: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  return fuzzyFilter(query, commands, (c) => c.name, commands.length);
}

/** The `@` picker's rows for `query`: the best MENTION_MENU_ROWS matching files. */
export function mentionMenuItems(query: string, files: readonly string[]): string[] {
  return fuzzyFilter(query, files, (f) => f, MENTION_MENU_ROWS);
}

export type CompletionContext =
  | { kind: 'command'; query: string }
  | { kind: 'mention'; query: string; start: number; end: number }
  | null;

/** What to complete for `value` with the caret at `caret`. */
export function completionContext(value: string, caret: number): CompletionContext {
  const command = /^\/([^\s/]*)$/.exec(value);
  if (command && caret >= 1) return { kind: 'command', query: command[1] };
  // The word the caret is in (or right after), when it starts with @ after a space or the start.
  let start = caret;
  while (start > 0 && !/\s/.test(value[start - 1])) start--;
  let end = caret;
  while (end < value.length && !/\s/.test(value[end])) end++;
  const word = value.slice(start, end);
  if (!word.startsWith('@') || word.includes(':')) return null;
  return { kind: 'mention', query: word.slice(1).replace(/^"/, ''), start, end };
}

/** `value` with the mention at [start, end) replaced by `@path ` (quoted when the path has spaces). */
export function insertMention(
  value: string,
  start: number,
  end: number,
  path: string,
): { value: string; caret: number } {
  const token = /\s/.test(path) ? `@"${path}"` : `@${path}`;
  const rest = value.slice(end);
  const spaced = rest.startsWith(' ') ? '' : ' ';
  const next = `${value.slice(0, start)}${token}${spaced}${rest}`;
  return { value: next, caret: start + token.length + 1 };
}
