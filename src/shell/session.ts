/**
 * What a line means in the shell session it runs in. The session keeps its cwd and exported variables
 * between calls, so `~` follows HOME, a relative `cd` may follow CDPATH, a program name follows PATH, and
 * a nested shell runs the start-up file BASH_ENV names. Those come from the sandbox's session state, and
 * anything the line itself may change is unknown.
 */
import type { ShellAnalysis, ShellCommand, ShellForm } from './types.ts';

/** A shell session's state as the next command sees it (Sandbox.shellState()). */
export interface ShellSessionState {
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** Directories on PATH whose programs the sandbox provides (not files the agent can write). */
export const TRUSTED_PATH_DIRS: readonly string[] = [
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
];

/** Variables that make a shell run code before or while it runs a command. */
const STARTUP_VARIABLES = ['BASH_ENV', 'ENV', 'PS4', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS'];

/**
 * Variables that make the programs of a command run code its words do not show when the line sets them
 * (`LD_PRELOAD=x.so ls`, `GIT_EXTERNAL_DIFF=… git diff`, `NODE_OPTIONS='--require x' node`, `PAGER=…`,
 * `LESSOPEN`, `TAR_OPTIONS='--to-command=…'`): loaders, shells' start-up files, interpreters' options
 * and libraries, pagers and editors programs start, git's and ripgrep's configuration. (The session's
 * own values are judged below, program by program.)
 */
const CODE_VARIABLE =
  /^(LD_[A-Z_]+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|NODE_OPTIONS|NODE_PATH|PYTHON(STARTUP|PATH|HOME|INSPECT)|PERL5?(OPT|LIB)|PERLLIB|RUBY(OPT|LIB)|LESS(OPEN|CLOSE)?|(GIT_|MAN|SYSTEMD_)?PAGER|EDITOR|VISUAL|RIPGREP_CONFIG_PATH|TAR_OPTIONS|GZIP|GREP_OPTIONS|AWKPATH|ZDOTDIR|[A-Z_]*ASKPASS|npm_config_\w+|NPM_CONFIG_\w+|GIT_\w+|XDG_CONFIG_HOME|MAKEFLAGS|MFLAGS)$/;

/** Whether setting `name` for a command may make it run code the line does not show. */
export function isCodeVariable(name: string): boolean {
  // The sandbox's npm reads npm_config_* in any case (`Npm_Config_Cache`: src/runtimes/npm/config.ts).
  return (CODE_VARIABLE.test(name) || /^npm_config_\w+$/i.test(name)) && !GIT_HARMLESS.test(name);
}

/**
 * Upper-case variables that only pick a mode of the programs that read them: a node project's
 * configuration (NODE_ENV), a CI run (CI), colour (NO_COLOR, FORCE_COLOR). None of the programs the
 * analysis counts read-only reads them to run, open or find anything else; unlike HOME, PATH, CDPATH,
 * IFS, LANG, TZ, POSIXLY_CORRECT and the like, which change what the code, files or options of a
 * command mean (so an upper-case name is not plain unless it is listed here).
 */
const MODE_VARIABLES = new Set(['NODE_ENV', 'CI', 'NO_COLOR', 'FORCE_COLOR']);

/**
 * Whether a variable is plain: the script's own, which no shell feature and no program reads, or one of
 * MODE_VARIABLES. The script's own is a name with a lowercase letter (bash's own variables and the
 * environment's are upper case), other than the few lowercase ones programs do read (`http_proxy`,
 * `npm_config_*`) or bash does (`auto_resume`, `histchars`). Setting one runs nothing (`dir=src ls`,
 * `env NODE_ENV=test ls` stay read-only); what its value holds is walked on its own.
 */
export function isPlainVariable(name: string): boolean {
  if (MODE_VARIABLES.has(name)) return true;
  return (
    /[a-z]/.test(name) &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) &&
    !/proxy$/i.test(name) &&
    name !== 'auto_resume' &&
    name !== 'histchars' &&
    !isCodeVariable(name)
  );
}

/** The analysis as the session gives it meaning. */
export interface SessionView {
  /** The analysis with what the session changes applied (programs PATH may redirect are not read-only). */
  analysis: ShellAnalysis;
  /** Where `~` leads, or null when the line may change HOME (or the session has none). */
  home: string | null;
  /** A relative `cd` may be redirected by CDPATH. */
  cdpath: boolean;
}

export interface SessionOptions {
  /** HOME when no session state is given (default: none, `~` is then unknown). */
  defaultHome?: string;
  /** More trusted PATH directories (those of the PATH the session started with). */
  trustedPath?: readonly string[];
}

const assigned = (a: ShellAnalysis, name: string): boolean => a.assigns === 'any' || a.assigns.includes(name);

/** Variables whose default just-bash value is harmless (they exist in every session). */
const DEFAULT_HARMLESS: Record<string, (v: string) => boolean> = {
  SHELLOPTS: (v) => !/xtrace|verbose/.test(v),
  BASHOPTS: (v) => !/extdebug|expand_aliases/.test(v),
  PS4: (v) => !/[$`]/.test(v),
};

/** Why the session (or the line) may make shells run code of their own, or null. */
function startupCode(a: ShellAnalysis, env: Readonly<Record<string, string>>): string | null {
  // An exported function (`BASH_FUNC_ls%%`) replaces the command of that name in every nested bash.
  const exported = Object.keys(env).find((k) => k.startsWith('BASH_FUNC_'));
  if (exported) return `the session exports the function ${exported.slice(10).replace(/%%$/, '')} to shells`;
  for (const name of STARTUP_VARIABLES) {
    if (assigned(a, name)) return `the line sets ${name}`;
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (DEFAULT_HARMLESS[name]?.(value)) continue;
    return `the session's ${name} makes a shell run more code`;
  }
  return null;
}

/**
 * git reads its configuration, and programs to run, from the environment: `GIT_EXTERNAL_DIFF` runs on
 * `git diff`, `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n` or `GIT_CONFIG_PARAMETERS` can set `core.fsmonitor`
 * (run by `git status`), `GIT_TRACE=FILE` writes a file, `GIT_DIR`/`GIT_CONFIG_GLOBAL`/`XDG_CONFIG_HOME`
 * point it at a config file the agent may write. Names that only label commits are harmless.
 */
const GIT_HARMLESS = /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$/;

/** Why git, run in this session, may run a program or write a file the line does not show, or null. */
function gitEnvironment(env: Readonly<Record<string, string>>): string | null {
  const name = Object.keys(env).find(
    (k) => env[k] !== '' && ((k.startsWith('GIT_') && !GIT_HARMLESS.test(k)) || k === 'XDG_CONFIG_HOME'),
  );
  return name ? `the session's ${name} changes what git runs or writes` : null;
}

/**
 * Variables that make other programs run code: the dynamic loader preloads a library into every
 * program (LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH), ripgrep reads its options (`--pre=PROGRAM`) from
 * the file RIPGREP_CONFIG_PATH names.
 */
const LOADER_VARIABLES = ['LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH'];
const PROGRAM_VARIABLES: Record<string, readonly string[]> = { rg: ['RIPGREP_CONFIG_PATH'] };

/** The name of a command's program without its directory (`/usr/bin/git` is git); '' when not static. */
export function programName(c: ShellCommand): string {
  const program = c.words[0];
  return !program || program.dynamic ? '' : program.text.slice(program.text.lastIndexOf('/') + 1);
}

/** Why the session makes this command's program run code its words do not show, or null. */
function programEnvironment(c: ShellCommand, env: Readonly<Record<string, string>>): string | null {
  const program = c.words[0];
  if (!program || program.dynamic) return null;
  const name = programName(c);
  const set = (v: string) => env[v] !== undefined && env[v] !== '';
  if (c.usesPath || program.text.includes('/')) {
    const loader = LOADER_VARIABLES.find(set);
    if (loader) return `the session's ${loader} loads code into every program`;
  }
  const own = (PROGRAM_VARIABLES[name] ?? []).find(set);
  return own ? `the session's ${own} gives ${name} options the line does not show` : null;
}

const isGit = (c: ShellCommand): boolean => programName(c) === 'git';

/** Why PATH may lead a program name to a file the agent can write, or null. */
function untrustedPath(
  a: ShellAnalysis,
  env: Readonly<Record<string, string>>,
  trusted: ReadonlySet<string>,
): string | null {
  if (assigned(a, 'PATH')) return 'the line changes PATH';
  const path = env.PATH;
  if (path === undefined) return null;
  const bad = path.split(':').find((dir) => !trusted.has(dir.replace(/\/+$/, '') || '/'));
  return bad === undefined
    ? null
    : `PATH holds ${bad || 'the current directory'}, where programs may be replaced`;
}

const OPAQUE_FORM: ShellForm = { words: [{ text: '…', dynamic: true, glob: false }], sure: false };

function notReadOnly(c: ShellCommand, reason: string, opaque: boolean): ShellCommand {
  return {
    ...c,
    readOnly: false,
    reason: c.reason ?? reason,
    opaque: c.opaque || opaque,
    container: opaque ? false : c.container,
    forms: opaque && !c.opaque ? [...c.forms, OPAQUE_FORM] : c.forms,
  };
}

/** Applies the session's state to an analysis. Never throws. */
export function inSession(
  a: ShellAnalysis,
  state: ShellSessionState | undefined,
  options: SessionOptions = {},
): SessionView {
  const env = state?.env ?? {};
  const homeValue = state ? env.HOME : options.defaultHome;
  const home = assigned(a, 'HOME') || !homeValue?.startsWith('/') ? null : homeValue;
  const cdpath = assigned(a, 'CDPATH') || (env.CDPATH ?? '') !== '';
  const trusted = new Set([...TRUSTED_PATH_DIRS, ...(options.trustedPath ?? [])]);
  const startup = startupCode(a, env);
  const path = untrustedPath(a, env, trusted);
  const git = gitEnvironment(env);
  const programs = a.parsed && a.commands.some((c) => programEnvironment(c, env) !== null);
  // `export LD_PRELOAD=x.so; ls`: the line sets a variable that makes its later programs run code.
  const lineCode = a.assigns === 'any' ? undefined : a.assigns.find(isCodeVariable);
  // The session ran `set -P`: a `cd` takes `..` physically, from where a link leads.
  if (a.parsed && /(^|:)physical(:|$)/.test(env.SHELLOPTS ?? '')) a = withPhysicalCd(a);
  if (!a.parsed || (!startup && !path && !git && !programs && !lineCode))
    return { analysis: a, home, cdpath };
  const commands = a.commands.map((c) => {
    const own = programEnvironment(c, env);
    if (own) return notReadOnly(c, own, true);
    if (lineCode && c.words.length > 0)
      return notReadOnly(c, `the line sets ${lineCode}, which makes programs run more code`, true);
    if (startup && c.startsShell) return notReadOnly(c, startup, true);
    if (path && c.usesPath) return notReadOnly(c, path, true);
    if (git && isGit(c)) return notReadOnly(c, git, true);
    return c;
  });
  const readOnly =
    commands.length > 0 && commands.every((c) => c.readOnly && c.paths.every((p) => p.access === 'read'));
  return {
    analysis: {
      ...a,
      commands,
      readOnly,
      concurrencySafe: readOnly && commands.every((c) => !c.changesState),
    },
    home,
    cdpath,
  };
}

const climbs = (trail: readonly string[] | null | undefined): boolean =>
  !!trail?.some((t) => t.split('/').includes('..'));

/** The analysis with every path after a `cd` to a target holding `..` from an unknown directory. */
function withPhysicalCd(a: ShellAnalysis): ShellAnalysis {
  if (!a.commands.some((c) => climbs(c.cdTrail) || c.paths.some((p) => climbs(p.cdTrail)))) return a;
  const commands = a.commands.map((c) => ({
    ...c,
    ...(climbs(c.cdTrail) ? { cdTrail: null } : {}),
    paths: c.paths.map((p) => (climbs(p.cdTrail) ? { ...p, cdTrail: null } : p)),
  }));
  return { ...a, commands };
}

/** A `cd` target CDPATH may redirect: relative, and not starting with `.` or `..`. */
export function cdpathSearched(target: string): boolean {
  return !target.startsWith('/') && !target.startsWith('~') && !/^\.\.?(\/|$)/.test(target);
}

/**
 * The analysis with some of its commands (by index) marked as running code the line does not show, for
 * the reason given (a git command whose repository is not the workspace's own). Never throws.
 */
export function withOpaqueCommands(a: ShellAnalysis, reasons: ReadonlyMap<number, string>): ShellAnalysis {
  if (reasons.size === 0) return a;
  const commands = a.commands.map((c, k) => {
    const reason = reasons.get(k);
    return reason === undefined ? c : notReadOnly(c, reason, true);
  });
  const readOnly =
    commands.length > 0 && commands.every((c) => c.readOnly && c.paths.every((p) => p.access === 'read'));
  return { ...a, commands, readOnly, concurrencySafe: readOnly && commands.every((c) => !c.changesState) };
}
