/**
 * The package scripts an `npm` command runs (`npm test`, `npm run build`, `npm install`'s lifecycle
 * scripts, `npm exec -c`): shell code in package.json, which the line does not show. The sandbox's npm
 * runs them through its shell, so deny and ask rules, and the protected paths, must see them. The command
 * line is read with the sandbox npm's own parser and command table (src/shell/npm-args.ts); the scripts
 * that command runs (with their pre and post scripts, the implicit ones npm adds, and the arguments npm
 * appends) are read from the package.json it would use, as the sandbox holds it when the call is checked,
 * and analysed like `bash -c` text in the package's folder; a script that runs npm again is followed.
 * A command whose scripts cannot be known (the line may write package.json first, npm is pointed at
 * another package, a script's program may be a file in node_modules/.bin, which npm puts first on PATH)
 * runs code the analysis cannot see.
 */
import {
  analyzeShell,
  isCodeVariable,
  isKnownProgram,
  NPM_COMMANDS,
  NPM_IMPLICIT_SCRIPTS,
  NPM_SERVER_START,
  parseNpmArgs,
  ROOT_INSTALL_EVENTS,
  runsRootInstallScripts,
  type ShellAnalysis,
  type ShellCommand,
} from '../../shell/index.ts';
import { isInside, resolvePath } from './paths.ts';
import { candidateCwds, type PathEnv, resolveRef } from './subjects.ts';
import type { PermissionContext } from './types.ts';

/** Flags that make npm use another package than the nearest package.json's (its scripts are not read). */
const ELSEWHERE = ['prefix', 'workspace', 'workspaces', 'include-workspace-root', 'global'];
/** Most scripts analysed per line, the longest one, and how deep scripts that run npm are followed. */
const MAX_SCRIPTS = 64;
const MAX_SCRIPT_CHARS = 8000;
const MAX_DEPTH = 4;

/** Quoted for sh as npm quotes the arguments it appends to a script. */
const shQuote = (s: string) => (s !== '' && /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** What one npm command runs: script events (the first one given `args`), or a `--call` line. */
interface NpmRun {
  events: string[];
  args: string[];
  call?: string;
  elsewhere: boolean;
}

/** The scripts `c` runs when its program is npm; null when it is no npm command that runs any. */
function npmRun(c: ShellCommand): NpmRun | 'unknown' | null {
  const [program, ...words] = c.words;
  if (!program || program.dynamic || program.text.split('/').pop() !== 'npm') return null;
  if (words.some((w) => w.dynamic)) return 'unknown';
  const parsed = parseNpmArgs(words.map((w) => w.text));
  const elsewhere = ELSEWHERE.some((f) => parsed.flags.has(f) && parsed.flags.get(f) !== false);
  const [word, ...rest] = parsed.positionals;
  const command = word === undefined ? undefined : NPM_COMMANDS[word];
  const around = (e: string) => [e, `pre${e}`, `post${e}`];
  const passed = parsed.passthrough;
  switch (command) {
    case 'run':
      return rest.length ? { events: around(rest[0]), args: [...rest.slice(1), ...passed], elsewhere } : null;
    case 'test':
    case 'start':
    case 'stop':
      return { events: around(command), args: [...rest, ...passed], elsewhere };
    case 'restart':
      return { events: [...around('restart'), ...around('stop'), ...around('start')], args: [], elsewhere };
    case 'install':
    case 'ci':
    case 'uninstall':
    case 'install-test':
    case 'install-ci-test': {
      // The project's own install scripts run only for an install of the whole project; its
      // dependencies scripts after any change to node_modules (npm 8+, so under WebContainer's npm).
      const root = runsRootInstallScripts(command, rest) ? ROOT_INSTALL_EVENTS : [];
      const test = command === 'install-test' || command === 'install-ci-test' ? around('test') : [];
      return { events: [...root, ...around('dependencies'), ...test], args: [], elsewhere };
    }
    case 'exec': {
      const call = parsed.flags.get('call');
      return typeof call === 'string' ? { events: [], args: [], call, elsewhere } : null;
    }
    default:
      // No command (usage), one npm refuses, or one that runs no script of the package (ls, init...).
      return null;
  }
}

/** Where the package.json npm would use is, for a command run in `cwd`: the nearest one up. */
async function packageFile(cwd: string, exists: (abs: string) => Promise<boolean>): Promise<string | null> {
  for (let dir = cwd; ; dir = dir.slice(0, dir.lastIndexOf('/')) || '/') {
    const file = dir === '/' ? '/package.json' : `${dir}/package.json`;
    if (await exists(file)) return file;
    if (dir === '/') return null;
  }
}

/** True when some command of the line may write `file` (or runs code that may). */
function lineMayWrite(a: ShellAnalysis, file: string, env: PathEnv): boolean {
  return a.commands.some(
    (c) =>
      c.opaque ||
      c.paths.some((ref) => {
        if (ref.access === 'read') return false;
        if (ref.glob) return true;
        const at = resolveRef(env, ref);
        return at === null || at.some((abs) => abs === file || (ref.recursive && isInside(abs, file)));
      }),
  );
}

/** The `node_modules/.bin` folders npm puts first on a script's PATH, nearest first. */
const binDirs = (dir: string): string[] => {
  const out: string[] = [];
  for (let d = dir; ; d = d.slice(0, d.lastIndexOf('/')) || '/') {
    out.push(d === '/' ? '/node_modules/.bin' : `${d}/node_modules/.bin`);
    if (d === '/') return out;
  }
};

export interface NpmScripts {
  /** Commands of the line that run scripts no one can know, by index, with why. */
  unseen: Map<number, string>;
  /** The commands the scripts run (rules and protected paths apply to them as to the line's own). */
  runs: ShellCommand[];
}

type Ctx = Pick<PermissionContext, 'exists' | 'existsAnywhere' | 'readFile'>;

interface Walk {
  line: ShellAnalysis;
  env: PathEnv;
  ctx: Ctx;
  runs: ShellCommand[];
  /** Scripts analysed so far (a script that runs npm again is followed once). */
  seen: Set<string>;
}

/** The scripts the line's npm commands run (see the module comment). Never throws. */
export async function npmScripts(a: ShellAnalysis, env: PathEnv, ctx: Ctx): Promise<NpmScripts> {
  const unseen = new Map<number, string>();
  const walk: Walk = { line: a, env, ctx, runs: [], seen: new Set() };
  // Scripts are read with the session's HOME, PATH and CDPATH: a line that sets one (or a variable that
  // makes programs run more code) before npm runs them leaves their meaning unknown.
  const sets =
    a.assigns === 'any'
      ? 'variables'
      : a.assigns.find((n) => n === 'HOME' || n === 'PATH' || n === 'CDPATH' || isCodeVariable(n));
  for (const [k, c] of a.commands.entries()) {
    let why: string | null;
    try {
      why =
        sets && npmRun(c) !== null
          ? `the line sets ${sets}, which the scripts npm runs read`
          : await scriptsOf(walk, c, 0);
    } catch {
      why = 'npm runs package scripts the analysis cannot read here';
    }
    if (why) unseen.set(k, why);
  }
  return { unseen, runs: walk.runs };
}

/** Adds what `c` runs to `walk.runs`; returns why it runs unseen code, or null. */
async function scriptsOf(walk: Walk, c: ShellCommand, depth: number): Promise<string | null> {
  const run = npmRun(c);
  if (run === null) return null;
  if (run === 'unknown') return 'npm is given words only known at run time';
  if (run.elsewhere) return 'npm runs the scripts of another package than the nearest package.json';
  if (depth >= MAX_DEPTH) return 'npm runs scripts that run npm again, deeper than the analysis follows';
  const { exists, readFile } = walk.ctx;
  const cwds = candidateCwds(walk.env, c.cdTrail === undefined ? [] : c.cdTrail);
  if (cwds === null || !exists || !readFile) return 'npm runs package scripts the analysis cannot read here';
  for (const cwd of cwds) {
    const here = resolvePath('/', cwd, walk.env.home);
    if (run.call !== undefined) {
      // `npm exec -c` runs its line in the cwd, with the cwd's node_modules/.bin first on PATH.
      const why = await once(walk, 'the --call line of npm exec', here, '--call', run.call, depth);
      if (why) return why;
    }
    if (run.events.length === 0) continue;
    const file = await packageFile(here, exists);
    if (file === null) continue;
    if (lineMayWrite(walk.line, file, walk.env))
      return `npm runs the scripts of ${file}, which the line may change first`;
    const dir = file.slice(0, file.lastIndexOf('/')) || '/';
    let json: string;
    try {
      json = await readFile(file);
    } catch {
      // npm reads it where the analysis cannot (a link out of the workspace): its scripts are unknown.
      return `npm runs the scripts of ${file}, which the analysis cannot read`;
    }
    let scripts: Record<string, unknown> = {};
    try {
      const pkg = JSON.parse(json) as { scripts?: unknown } | null;
      if (pkg?.scripts && typeof pkg.scripts === 'object') scripts = pkg.scripts as Record<string, unknown>;
    } catch {
      // npm refuses a package.json it cannot parse: it runs no script.
      continue;
    }
    // The scripts npm adds where package.json has none (src/runtimes/npm/scripts.ts runScript).
    const implicit: Record<string, string> = {
      ...NPM_IMPLICIT_SCRIPTS,
      ...(run.events.includes('start') && (await exists(`${dir}/server.js`))
        ? { start: NPM_SERVER_START }
        : {}),
    };
    for (const [i, event] of run.events.entries()) {
      const own = scripts[event];
      const text = typeof own === 'string' ? own : own === undefined ? implicit[event] : undefined;
      if (text === undefined) continue;
      // npm appends the command's arguments to its script (not to the pre and post ones).
      const args = i === 0 && run.args.length ? ` ${run.args.map(shQuote).join(' ')}` : '';
      const why = await once(walk, `the ${event} script of ${file}`, dir, event, `${text}${args}`, depth);
      if (why) return why;
    }
  }
  return null;
}

/** Analyses a text npm runs in `dir` once per line (a script npm runs again is read once). */
async function once(
  walk: Walk,
  what: string,
  dir: string,
  name: string,
  text: string,
  depth: number,
): Promise<string | null> {
  const key = `${dir}\n${name}\n${text}`;
  if (walk.seen.has(key)) return null;
  walk.seen.add(key);
  if (walk.seen.size > MAX_SCRIPTS || text.length > MAX_SCRIPT_CHARS)
    return 'npm runs more scripts than the analysis reads';
  return scriptText(walk, what, dir, text, depth);
}

/** Analyses one script as npm runs it in `dir`; returns why it runs unseen code, or null. */
async function scriptText(
  walk: Walk,
  what: string,
  dir: string,
  text: string,
  depth: number,
): Promise<string | null> {
  // On a line of its own after the cd: the script's own `a || b` binds as it would in npm's shell.
  const analysis = await analyzeShell(`cd ${shQuote(dir)}\n${text}`);
  if (!analysis.parsed) return `${what} cannot be read: ${analysis.parseError ?? 'parse error'}`;
  const { exists, existsAnywhere } = walk.ctx;
  /** Whether a file is there; null where the sandbox cannot tell (outside the workspace, say). */
  const there = async (abs: string): Promise<boolean | null> => {
    try {
      return await (existsAnywhere ?? exists ?? (async () => null))(abs);
    } catch {
      return null;
    }
  };
  for (const command of analysis.commands) {
    // Messages name the script the command comes from.
    walk.runs.push({
      ...command,
      source: `${command.source} (${what}, which npm runs)`,
    });
    // npm puts every node_modules/.bin from the package up first on PATH: a file there named like a
    // program the analysis knows (ls, cat, a wrapper such as env) runs instead of it. Each program of the
    // command as written counts (the wrappers before the one that runs too).
    const names = new Set(
      [command.words[0], ...command.forms.map((f) => f.words[0])].flatMap((w) =>
        w && !w.dynamic && !w.text.includes('/') && isKnownProgram(w.text) ? [w.text] : [],
      ),
    );
    for (const name of command.usesPath || command.words.length === 0 ? names : []) {
      for (const bin of binDirs(dir)) {
        const found = await there(`${bin}/${name}`);
        if (found !== false) return `${what} may run ${bin}/${name}, code the analysis cannot see`;
      }
    }
    const nested = await scriptsOf(walk, command, depth + 1);
    if (nested) return nested;
  }
  return null;
}
