/**
 * Text helpers shared by Read, Write and Edit: splitting a file into lines, `cat -n` numbering, cutting
 * long lines, finding the changed region between two versions and showing a numbered snippet of it.
 * Pure functions, no I/O.
 */
import { READ_MAX_LINE_CHARS } from '../../core/constants.ts';

/** Lines of context shown before and after a change in a snippet. */
export const SNIPPET_CONTEXT_LINES = 4;
/** Most lines a snippet shows; the rest of a long change is summarised. */
export const SNIPPET_MAX_LINES = 40;

/**
 * The lines of `text`, split on `\n` or `\r\n` (the `\r` is dropped). A final newline does not start a
 * new line, as `cat -n` counts them: `''` → `[]`, `'a\n'` → `['a']`, `'\n'` → `['']`.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Cuts `line` to `max` characters, ending it with a marker that says how long it was. */
export function truncateLine(line: string, max: number = READ_MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line truncated: ${line.length} characters]`;
}

/** One line in `cat -n` format: the number right-aligned in 6 columns, a tab, then the line. */
export function numberedLine(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(6)}\t${line}`;
}

/** `lines` in `cat -n` format, numbered from `startLine` (1-based), joined with `\n`. */
export function addLineNumbers(lines: readonly string[], startLine: number): string {
  return lines.map((line, i) => numberedLine(startLine + i, line)).join('\n');
}

/** A run of lines that differs between two versions, 1-based and inclusive, in each version. */
export interface ChangedRange {
  /** First changed line (same number in both versions). */
  start: number;
  /** Last changed line in `before` (start - 1 when lines were only added). */
  endBefore: number;
  /** Last changed line in `after` (start - 1 when lines were only removed). */
  endAfter: number;
}

/**
 * The smallest line range outside which `before` and `after` are equal (common prefix and suffix of
 * lines), or null when the two texts have the same lines.
 */
export function changedLineRange(before: string, after: string): ChangedRange | null {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  if (prefix === a.length && prefix === b.length) return null;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  return { start: prefix + 1, endBefore: a.length - suffix, endAfter: b.length - suffix };
}

/**
 * A `cat -n` snippet of `after` around the lines that changed from `before`: the changed lines plus
 * `context` lines either side, at most `maxLines` lines (a note says how many more changed lines there
 * are). Long lines are cut. Returns '' when nothing changed or `after` is empty.
 */
export function changeSnippet(
  before: string,
  after: string,
  context: number = SNIPPET_CONTEXT_LINES,
  maxLines: number = SNIPPET_MAX_LINES,
): string {
  const range = changedLineRange(before, after);
  const lines = splitLines(after);
  if (!range || lines.length === 0) return '';
  const first = Math.max(1, range.start - context);
  const last = Math.min(lines.length, Math.max(range.endAfter, range.start - 1) + context);
  if (last < first) return '';
  const shownLast = Math.min(last, first + maxLines - 1);
  const shown = lines.slice(first - 1, shownLast).map((l) => truncateLine(l));
  let text = addLineNumbers(shown, first);
  if (shownLast < last) text += `\n... (${last - shownLast} more lines in the changed region not shown)`;
  return text;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'tsx',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  md: 'markdown',
  py: 'python',
  sh: 'bash',
  bash: 'bash',
  css: 'css',
  html: 'html',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'toml',
  rs: 'rust',
  go: 'go',
  sql: 'sql',
  txt: 'text',
};

/** A language id for syntax highlighting, guessed from the file extension (undefined when unknown). */
export function languageOf(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return LANGUAGES[name.slice(dot + 1).toLowerCase()];
}
