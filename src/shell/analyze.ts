/**
 * The shell analysis of one command line, on just-bash's parser alone: the commands it runs (through
 * every compound form, substitution, wrapper and nested script), what each reads and writes, whether
 * it is read-only, and what the line may change in the shell session. Made once per Bash call.
 */
import { loadShellParser, type ShellParser } from './parser.ts';
import type { ShellAnalysis } from './types.ts';
import { UnknownSyntax, Unparseable, Walker } from './walker.ts';

/** The analysis of a command that could not be analysed (`reason`): fails closed (not read-only, destructive). */
export function unparsed(command: string, reason: string, parserRuns: number): ShellAnalysis {
  return {
    command,
    parsed: false,
    parseError: reason,
    commands: [],
    readOnly: false,
    concurrencySafe: false,
    destructive: true,
    assigns: 'any',
    parserRuns,
  };
}

/**
 * Longest command line analysed. Parsing runs on the page's thread at ~2-3 µs a character for a long
 * chain of commands; a longer line is not parsed and counts as one that may run or write anything (it
 * asks, where asking applies).
 */
export const MAX_ANALYZED_CHARS = 50_000;
/**
 * Deepest nesting of `(` and `{` analysed (counted in the raw text, quotes too: only ever too many).
 * Nested substitutions cost the parser ~0.1 ms a level: 20,000 levels held the page for seconds.
 */
export const MAX_ANALYZED_NESTING = 256;

/** Why `command` is not parsed at all (its size or nesting), or null. Linear. */
function tooBig(command: string): string | null {
  if (command.length > MAX_ANALYZED_CHARS)
    return `the command is too long to analyse (${command.length} characters; the limit is ${MAX_ANALYZED_CHARS})`;
  let depth = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    if (c === 40 || c === 123) {
      depth++;
      if (depth > MAX_ANALYZED_NESTING)
        return `the command nests brackets too deeply to analyse (more than ${MAX_ANALYZED_NESTING} levels)`;
    } else if ((c === 41 || c === 125) && depth > 0) depth--;
  }
  return null;
}

/** Analyses `command` with a loaded parser. Never throws: what cannot be analysed is `parsed: false`. */
export function analyzeWith(parse: ShellParser, command: string): ShellAnalysis {
  if (typeof command !== 'string') return unparsed(String(command), 'the command is not text', 0);
  const big = tooBig(command);
  if (big) return unparsed(command, big, 0);
  const walker = new Walker(parse);
  try {
    walker.text(command, { cdTrail: [] }, -1);
  } catch (err) {
    const reason = err instanceof Unparseable || err instanceof UnknownSyntax ? err.message : String(err);
    return unparsed(command, reason || 'the parser refused it', walker.parserRuns);
  }
  const commands = walker.commands;
  const readOnly =
    commands.length > 0 && commands.every((c) => c.readOnly && c.paths.every((p) => p.access === 'read'));
  return {
    command,
    parsed: true,
    commands,
    readOnly,
    concurrencySafe: readOnly && commands.every((c) => !c.changesState),
    destructive: commands.some((c) => c.destructive),
    assigns: walker.anyAssign ? 'any' : [...walker.assigns].sort(),
    parserRuns: walker.parserRuns,
  };
}

/**
 * Analyses a command line (loading the parser on first use). Never throws: a line the parser rejects,
 * or a construct the analysis does not know, gives `parsed: false` with the reason.
 */
export async function analyzeShell(command: string): Promise<ShellAnalysis> {
  let parse: ShellParser;
  try {
    parse = await loadShellParser();
  } catch (err) {
    return unparsed(command, `the shell parser could not load: ${String(err)}`, 0);
  }
  return analyzeWith(parse, command);
}
