/**
 * The search engine behind Grep: pattern compilation, file filters (glob, type), binary detection and
 * line matching with context, on ripgrep's semantics where JavaScript allows.
 */
import picomatch from 'picomatch';
import { messageOf } from '../../core/errors.ts';
import { ToolInputError } from '../../core/tool.ts';

/** ripgrep-style file types (a subset of `rg --type-list`) → file name globs. */
export const FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.hpp', '*.hh', '*.hxx', '*.h'],
  css: ['*.css', '*.scss'],
  go: ['*.go'],
  html: ['*.htm', '*.html', '*.ejs'],
  java: ['*.java'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs'],
  json: ['*.json'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  markdown: ['*.md', '*.markdown', '*.mdx', '*.mkd'],
  md: ['*.md', '*.markdown', '*.mdx', '*.mkd'],
  php: ['*.php'],
  py: ['*.py', '*.pyi'],
  ruby: ['*.rb', 'Gemfile', 'Rakefile'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh', '.bashrc', '.zshrc', '.profile'],
  sql: ['*.sql'],
  svelte: ['*.svelte'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  vue: ['*.vue'],
  xml: ['*.xml', '*.xsd', '*.xsl', '*.svg'],
  yaml: ['*.yaml', '*.yml'],
};

/**
 * Compiles a search pattern: a JavaScript RegExp source (a leading `(?i)` as in ripgrep turns on
 * ignore-case). Tries Unicode mode first, then legacy mode (where `{` and other lone syntax is literal).
 * Multiline: `.` matches newlines and `^`/`$` match at line boundaries. Throws ToolInputError.
 */
export function compilePattern(
  pattern: string,
  options: { ignoreCase?: boolean; multiline?: boolean },
): RegExp {
  let source = pattern;
  let ignoreCase = options.ignoreCase === true;
  if (source.startsWith('(?i)')) {
    source = source.slice(4);
    ignoreCase = true;
  }
  const flags = `${ignoreCase ? 'i' : ''}${options.multiline ? 'gms' : ''}`;
  try {
    return new RegExp(source, `${flags}u`);
  } catch (unicodeError) {
    try {
      return new RegExp(source, flags);
    } catch {
      const message = messageOf(unicodeError);
      throw new ToolInputError(
        `Invalid regular expression ${JSON.stringify(pattern)}: ${message}. The pattern is a JavaScript regular ` +
          'expression: escape ( ) [ ] { } . * + ? | \\ with a backslash to match them literally.',
      );
    }
  }
}

/** Splits Grep's glob parameter like Claude Code: on whitespace, and on commas outside `{...}`. */
export function splitGlobs(glob: string): string[] {
  const out: string[] = [];
  for (const raw of glob.split(/\s+/)) {
    if (!raw) continue;
    if (raw.includes('{') && raw.includes('}')) out.push(raw);
    else out.push(...raw.split(',').filter(Boolean));
  }
  return out;
}

/** A matcher of one glob: without a `/` it matches the file name at any depth, else the relative path. */
function globMatcher(glob: string): (relPath: string) => boolean {
  const pattern = glob.replace(/^(\.\/)+/, '');
  const isMatch = picomatch(pattern, { dot: true });
  if (pattern.includes('/')) return (rel) => isMatch(rel);
  return (rel) => isMatch(rel.slice(rel.lastIndexOf('/') + 1));
}

/**
 * A predicate on a file path relative to the search root: the file passes when it matches one of the
 * glob patterns (if any; `!pattern` excludes) and one of the type's globs (if a type is given). Patterns
 * without a `/` match the file name at any depth, as ripgrep's --glob does. Throws ToolInputError for
 * an unknown type.
 */
export function buildFileFilter(options: { glob?: string; type?: string }): (relPath: string) => boolean {
  const globs = options.glob ? splitGlobs(options.glob) : [];
  const include = globs.filter((g) => !g.startsWith('!')).map(globMatcher);
  const exclude = globs.filter((g) => g.startsWith('!') && g.length > 1).map((g) => globMatcher(g.slice(1)));
  let typeMatch: ((p: string) => boolean) | null = null;
  if (options.type !== undefined) {
    const typeGlobs = FILE_TYPES[options.type.trim().toLowerCase()];
    if (!typeGlobs) {
      throw new ToolInputError(
        `Unknown file type "${options.type}". Known types: ${Object.keys(FILE_TYPES).join(', ')}. ` +
          'Use the glob parameter for other files (e.g. "*.ext").',
      );
    }
    const matchers = typeGlobs.map(globMatcher);
    typeMatch = (rel) => matchers.some((m) => m(rel));
  }
  return (rel) =>
    (include.length === 0 || include.some((m) => m(rel))) &&
    !exclude.some((m) => m(rel)) &&
    (typeMatch === null || typeMatch(rel));
}

/** True when the first 8 KB contain a NUL byte (ripgrep's binary heuristic). */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** A file's lines (no terminators; a trailing newline does not start a new line). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * 0-based indexes of the lines that match, ascending. Without multiline each line is tested on its own;
 * with multiline (a `g` regex) every line a match spans counts.
 */
export function matchingLines(
  text: string,
  lines: readonly string[],
  regex: RegExp,
  multiline: boolean,
): number[] {
  if (!multiline) {
    const out: number[] = [];
    for (let k = 0; k < lines.length; k++) if (regex.test(lines[k])) out.push(k);
    return out;
  }
  const starts: number[] = [0];
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) starts.push(k + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return Math.min(lo, lines.length - 1);
  };
  const hit = new Set<number>();
  regex.lastIndex = 0;
  for (const m of text.matchAll(regex)) {
    const first = lineAt(m.index);
    const last = lineAt(m.index + Math.max(m[0].length, 1) - 1);
    for (let k = first; k <= last; k++) hit.add(k);
  }
  return [...hit].filter((k) => k >= 0).sort((a, b) => a - b);
}

/** Cuts a line longer than `max` characters, saying how much was cut. */
export function capLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)} [... ${line.length - max} more characters]`;
}

export interface ContentOptions {
  before: number;
  after: number;
  lineNumbers: boolean;
  maxLineChars: number;
}

/**
 * Output lines for one file in ripgrep's format: `path:N:text` for matches, `path-N-text` for context
 * (without line numbers `path:text` / `path-text`); with context lines, `--` between non-adjacent groups.
 * Made one at a time, so a caller can stop at its limit and yield to the page between them.
 */
export function* renderFileContent(
  displayPath: string,
  lines: readonly string[],
  matched: readonly number[],
  options: ContentOptions,
): Generator<string> {
  const isMatch = new Set(matched);
  const ranges: Array<[number, number]> = [];
  for (const k of matched) {
    const start = Math.max(0, k - options.before);
    const end = Math.min(lines.length - 1, k + options.after);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  let first = true;
  for (const [start, end] of ranges) {
    // ripgrep prints `--` between groups only when context lines were asked for.
    if (!first && (options.before > 0 || options.after > 0)) yield '--';
    first = false;
    for (let k = start; k <= end; k++) {
      const sep = isMatch.has(k) ? ':' : '-';
      const num = options.lineNumbers ? `${k + 1}${sep}` : '';
      yield `${displayPath}${sep}${num}${capLine(lines[k], options.maxLineChars)}`;
    }
  }
}

/**
 * Output lines of `-o` (ripgrep's --only-matching) for one file: each non-empty match on its own line,
 * `path:N:match` (`path:match` without line numbers). A multiline match keeps its newlines and is
 * numbered by the line it starts on. Context options do not apply. Made one at a time (see above).
 */
export function* renderOnlyMatching(
  displayPath: string,
  text: string,
  lines: readonly string[],
  matched: readonly number[],
  regex: RegExp,
  options: { lineNumbers: boolean; maxLineChars: number; multiline: boolean },
): Generator<string> {
  const global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
  const line = (n: number, m: string) =>
    `${displayPath}:${options.lineNumbers ? `${n}:` : ''}${capLine(m, options.maxLineChars)}`;
  if (options.multiline) {
    let lineNo = 1;
    let scanned = 0;
    for (const m of text.matchAll(global)) {
      if (m[0] === '') continue;
      for (let k = scanned; k < m.index; k++) if (text.charCodeAt(k) === 10) lineNo++;
      scanned = m.index;
      yield line(lineNo, m[0]);
    }
    return;
  }
  for (const k of matched) {
    for (const m of lines[k].matchAll(global)) if (m[0] !== '') yield line(k + 1, m[0]);
  }
}
