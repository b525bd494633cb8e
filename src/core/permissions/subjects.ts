/**
 * Matching rules against what a call touches: files (gitignore-style rules, with run-time and glob paths
 * treated as "maybe") and shell sub-commands (every form of each, see shell-rules.ts).
 */
import picomatch from 'picomatch';
import { cdpathSearched, GLOB_CHARS } from '../../shell/index.ts';
import { fileRuleMatches, isInside, relativeInside, resolvePath, ruleBase } from './paths.ts';
import { matchShellRule, type RuleMatch } from './shell-rules.ts';
import type { PermissionRule, ShellCommand, ShellPathRef, TreeEntry } from './types.ts';

/** Where paths resolve. */
export interface PathEnv {
  root: string;
  cwd: string;
  /** Where `~` leads: for file rules (`~/x`) and tools; see `shellHome` for shell commands. */
  home: string;
  /** Where `~` leads in the shell command, or null when the line or session leaves HOME unknown. */
  shellHome?: string | null;
  /** CDPATH may redirect a relative `cd`. */
  cdpath?: boolean;
  /** Real paths (symlinks followed) of the paths a call touches: deny and ask rules match them too. */
  real?: ReadonlyMap<string, string>;
  /**
   * For a line that only reads: what is below the directories it reads through, where the sandbox could
   * list all of it (no link below). A rule that matches nothing there matches nothing the line reads.
   */
  trees?: ReadonlyMap<string, readonly TreeEntry[]>;
  /** Too many paths to follow their links: any of them may lead to a path a rule names. */
  realIncomplete?: boolean;
}

/** `abs`, and the real path it leads to when that differs (see `PathEnv.real`). */
export function withReal(abs: string, env: PathEnv): string[] {
  const real = env.real?.get(abs);
  return real !== undefined && real !== abs ? [abs, real] : [abs];
}

/** Most directories a line's `cd`s may leave a command in before the engine gives up (unknown). */
const MAX_CWDS = 64;

/** HOME for shell paths: the session's, unless the line may change it. */
const shellHomeOf = (env: PathEnv): string | null => (env.shellHome === undefined ? env.home : env.shellHome);

/** The directories a command may run in, given the `cd`s before it (null: unknown). */
export function candidateCwds(env: PathEnv, trail: readonly string[] | null): string[] | null {
  if (trail === null) return null;
  const home = shellHomeOf(env);
  let set = [env.cwd];
  for (const target of trail) {
    // `cd` alone or `cd ~/x` follows HOME; a relative target may follow CDPATH.
    if ((target === '~' || target.startsWith('~/')) && home === null) return null;
    if (env.cdpath && cdpathSearched(target)) return null;
    set = [...new Set([...set, ...set.map((c) => resolvePath(c, target, home ?? env.home))])];
    if (set.length > MAX_CWDS) return null;
  }
  return set;
}

/**
 * Links the kernel makes to another process's directories or open files (`/proc/self/cwd/.env` is the
 * cwd's `.env`, `/proc/self/root` is `/`): where they lead is only known at run time.
 */
const PROC_LINK = /^\/proc\/[^/]+\/(cwd|root|fd|fdinfo|map_files|task)(\/|$)|^\/dev\/fd\/[^/]+\//;

/** The absolute paths a path reference may name, or null when that is only known at run time. */
export function resolveRef(env: PathEnv, ref: ShellPathRef): string[] | null {
  const paths = resolveRefText(env, ref);
  return paths?.some((p) => PROC_LINK.test(p)) ? null : paths;
}

function resolveRefText(env: PathEnv, ref: ShellPathRef): string[] | null {
  if (ref.dynamic) return null;
  const t = ref.text;
  if (ref.tilde && (t === '~' || t.startsWith('~/'))) {
    const home = shellHomeOf(env);
    return home === null ? null : [resolvePath(env.cwd, t, home)];
  }
  // A `~` that is not an expansion (quoted) is a file or directory named `~`.
  const plain = t.startsWith('~') ? `./${t}` : t;
  if (plain.startsWith('/')) return [resolvePath(env.cwd, plain, env.home)];
  const cwds = candidateCwds(env, ref.cdTrail);
  return cwds ? [...new Set(cwds.map((c) => resolvePath(c, plain, env.home)))] : null;
}

/**
 * Whether a rule may match some path strictly below `dir` (what a recursive read or write of `dir`
 * touches): a name pattern (`.env`, `*.key`) may match at any depth; an anchored one only when its
 * leading directories can lead into `dir`.
 */
export function ruleMayMatchBelow(content: string, dir: string, env: PathEnv): boolean {
  const { base, pattern } = ruleBase(content, env.root, env.home);
  const relDir = relativeInside(base, dir);
  if (relDir === null) return relativeInside(dir, base) !== null;
  const p = pattern.replace(/\/+$/, '');
  if (!p.includes('/')) return true;
  const segs = p.replace(/^\//, '').split('/');
  const dirSegs = relDir === '' ? [] : relDir.split('/');
  for (let i = 0; i < dirSegs.length; i++) {
    const ps = segs[i];
    if (ps === undefined) return false;
    if (ps === '**') return true;
    if (!picomatch(ps, { dot: true, nocase: true })(dirSegs[i])) return false;
  }
  return segs.length > dirSegs.length;
}

/**
 * Whether a glob argument (`src/*.ts`, `.e*`, `secr*\/key`) may expand to a path the rule matches.
 * A glob in a directory part may reach anything below the fixed part; a glob in the last part may name
 * any file of its directory the rule covers.
 */
function globMayMatch(content: string, abs: string, env: PathEnv, ignoreCase: boolean): boolean {
  const segs = abs.split('/').filter(Boolean);
  const k = segs.findIndex((s) => GLOB_CHARS.test(s));
  const dir = `/${segs.slice(0, k).join('/')}`;
  if (k < segs.length - 1) return ruleMayMatchBelow(content, dir, env);
  if (fileRuleMatches(content, dir, { ...env, ignoreCase, directory: true })) return true;
  const { pattern } = ruleBase(content, env.root, env.home);
  const last = pattern.replace(/\/+$/, '').split('/').pop() ?? '';
  if (GLOB_CHARS.test(last)) return ruleMayMatchBelow(content, dir, env);
  try {
    if (!picomatch(segs[k], { dot: true, nocase: ignoreCase })(last)) return false;
  } catch {
    return true;
  }
  return fileRuleMatches(content, `${dir === '/' ? '' : dir}/${last}`, { ...env, ignoreCase });
}

/** Whether the sandbox listed everything below `dir` and none of it is a path the rule names. */
function treeClear(content: string, dir: string, env: PathEnv, ignoreCase: boolean): boolean {
  const entries = env.trees?.get(dir);
  if (!entries) return false;
  return !entries.some((e) =>
    fileRuleMatches(content, e.abs, { ...env, ignoreCase, directory: e.directory }),
  );
}

/**
 * How a file rule matches a path reference of a shell command: 'maybe' when the path is only known at
 * run time, is a glob that may expand to a matching path, is a tree a recursive command goes through,
 * or is a word the analysis only thinks may be a file (`ref.sure` false).
 */
export function fileRuleMatchesRef(
  rule: PermissionRule,
  ref: ShellPathRef,
  env: PathEnv,
  ignoreCase: boolean,
): RuleMatch {
  const content = rule.value.ruleContent;
  if (content === undefined) return 'yes';
  const paths = resolveRef(env, ref);
  if (paths === null) return 'maybe';
  let result: RuleMatch = 'no';
  for (const abs of paths.flatMap((p) => withReal(p, env))) {
    if (fileRuleMatches(content, abs, { ...env, ignoreCase, directory: ref.recursive })) {
      if (ref.sure) return 'yes';
      result = 'maybe';
    }
    if (ref.glob && globMayMatch(content, abs, env, ignoreCase)) result = 'maybe';
    if (ref.recursive && ruleMayMatchBelow(content, abs, env) && !treeClear(content, abs, env, ignoreCase))
      result = 'maybe';
  }
  return result === 'no' && env.realIncomplete ? 'maybe' : result;
}

/**
 * The strongest match of `rules` against a command's forms, and the rule that gave it: 'yes' only on a
 * form that surely runs; a match on a form that only looks like it (`docker rm`) is 'maybe'.
 */
export function matchCommand(
  rules: readonly PermissionRule[],
  command: ShellCommand,
): { match: RuleMatch; rule?: PermissionRule } {
  let maybe: PermissionRule | undefined;
  for (const rule of rules) {
    const content = rule.value.ruleContent;
    if (content === undefined) return { match: 'yes', rule };
    for (const form of command.forms) {
      const m = matchShellRule(content, form.words);
      if (m === 'yes' && form.sure) return { match: 'yes', rule };
      if (m !== 'no') maybe ??= rule;
    }
  }
  return maybe ? { match: 'maybe', rule: maybe } : { match: 'no' };
}

/** The allow rule matching one of the texts a command may be allowed by (exact text: no look-alikes). */
export function allowRuleFor(
  rules: readonly PermissionRule[],
  command: ShellCommand,
): PermissionRule | undefined {
  return rules.find((rule) => {
    const content = rule.value.ruleContent;
    if (content === undefined) return true;
    return command.allowTexts.some(
      (text) => matchShellRule(content, [{ text, dynamic: false, glob: false }]) === 'yes',
    );
  });
}

/**
 * Every path the reference may name is inside the workspace, and so is where it really leads (a link an
 * earlier call made may lead out: `PathEnv.real`). False when unknown or a glob.
 */
export function refInWorkspace(ref: ShellPathRef, env: PathEnv): boolean {
  if (ref.glob) return false;
  const paths = resolveRef(env, ref);
  return paths?.every((abs) => withReal(abs, env).every((p) => isInside(env.root, p))) ?? false;
}

/** The path as the workspace sees it (relative when inside), for messages. */
export function showPath(abs: string, env: PathEnv): string {
  const rel = relativeInside(env.root, abs);
  return rel === null || rel === '' ? abs : rel;
}
