/** Helpers shared by the config checks (validate-*.ts). Nothing here throws. */

/** Reports one refused field (its path, and what to do instead). */
export type Warn = (field: string, message: string) => void;

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;

/** Largest file a config may carry (characters): a docs project, not a data set. */
export const MAX_EMBED_FILE_CHARS = 1_000_000;
/** Largest sum of every file of a config (characters). */
export const MAX_EMBED_FILES_TOTAL_CHARS = 5_000_000;
/** Most files a config may carry. */
export const MAX_EMBED_FILES = 2_000;
/** Longest prompt a config may carry (characters). */
export const MAX_EMBED_PROMPT_CHARS = 20_000;

const count = (n: number) => n.toLocaleString('en-US');

export function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return `A URL must be a string (got ${kindOf(value)}).`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return `Only http(s) URLs (got ${url.protocol}).`;
    return null;
  } catch {
    return `Not a URL: ${JSON.stringify(value.slice(0, 200))}.`;
  }
}

/** Project-relative paths only: no absolute paths, no `..`, no empty segments. */
export function pathProblem(path: string): string | null {
  const clean = path.replace(/^\.\//, '');
  if (!clean) return 'An empty path.';
  if (clean.startsWith('/')) return 'Paths are relative to the project (no leading "/").';
  if (clean.split('/').some((s) => s === '..' || s === '' || s === '.'))
    return 'A path may not contain "..", "." or empty segments.';
  if (clean.includes('\0')) return 'A path may not contain a NUL character.';
  return null;
}

/** `files`-like maps (config files, a lesson step's files and solution, a replay's files). */
export function checkFiles(value: unknown, field: string, warn: Warn): Record<string, string> | undefined {
  if (!isObject(value)) {
    warn(field, `${field} must be an object of path → text (got ${kindOf(value)}).`);
    return undefined;
  }
  const files: Record<string, string> = {};
  let total = 0;
  let kept = 0;
  for (const [path, content] of Object.entries(value)) {
    const at = `${field}[${JSON.stringify(path.slice(0, 200))}]`;
    const problem = pathProblem(path);
    if (problem) warn(at, problem);
    else if (typeof content !== 'string') warn(at, `A file's content must be text (got ${kindOf(content)}).`);
    else if (content.length > MAX_EMBED_FILE_CHARS)
      warn(
        at,
        `The file has ${count(content.length)} characters; a playground file may have at most ${count(MAX_EMBED_FILE_CHARS)}. Leave it out, or have the demo create or download it.`,
      );
    else if (total + content.length > MAX_EMBED_FILES_TOTAL_CHARS)
      warn(
        at,
        `The files add up to more than ${count(MAX_EMBED_FILES_TOTAL_CHARS)} characters; this one is left out.`,
      );
    else if (kept >= MAX_EMBED_FILES)
      warn(at, `More than ${count(MAX_EMBED_FILES)} files; this one is left out.`);
    else {
      files[path.replace(/^\.\//, '')] = content;
      total += content.length;
      kept++;
    }
  }
  return files;
}

/** A non-empty prompt of bounded length, or a warning. */
export function checkPrompt(value: unknown, field: string, warn: Warn): string | undefined {
  if (typeof value !== 'string' || !value.trim()) {
    warn(field, `${field} must be non-empty text (got ${kindOf(value)}).`);
    return undefined;
  }
  if (value.length > MAX_EMBED_PROMPT_CHARS) {
    warn(field, `${field} is longer than ${count(MAX_EMBED_PROMPT_CHARS)} characters.`);
    return undefined;
  }
  return value;
}
