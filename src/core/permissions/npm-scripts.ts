/**
 * The package scripts an `npm` command runs (`npm test`, `npm run build`, `npm install`'s lifecycle
 * scripts): shell code in package.json, which the line does not show. The sandbox's npm runs them through
 * its shell, so a deny rule must see them: each is read from the package.json the command would use, as
 * the sandbox holds it when the call is checked, and analysed like `bash -c` text in the package's
 * folder. The union of all of a package's scripts is taken (which of them run depends on the command, and
 * a script may `npm run` another). A command whose scripts cannot be known (the line itself may write
 * package.json, npm is pointed elsewhere, the file cannot be read) runs code the analysis cannot see.
 */
import { analyzeShell, type ShellAnalysis, type ShellCommand } from '../../shell/index.ts';
import { isInside, resolvePath } from './paths.ts';
import { candidateCwds, type PathEnv, resolveRef } from './subjects.ts';
import type { PermissionContext } from './types.ts';

/** npm commands that run no script of the package (`exec`/`init` run a package's bin, as `npx` does). */
const SCRIPT_FREE = new Set([
  'ls',
  'list',
  'll',
  'la',
  'view',
  'info',
  'show',
  'v',
  'search',
  'find',
  'config',
  'c',
  'get',
  'set',
  'help',
  'help-search',
  'outdated',
  'audit',
  'doctor',
  'whoami',
  'ping',
  'prefix',
  'root',
  'bin',
  'explain',
  'why',
  'fund',
  'query',
  'cache',
  'docs',
  'home',
  'bugs',
  'repo',
  'completion',
  'sbom',
  'exec',
  'x',
  'init',
  'create',
  'innit',
]);
/** Options that make npm use another package (its scripts are not the ones read here). */
const ELSEWHERE = /^(--prefix|-C|--workspaces?|-w|-ws|--include-workspace-root|--global|-g)(=|$)/;
/** Most scripts analysed per package, and the longest one (a package with more runs unseen code). */
const MAX_SCRIPTS = 64;
const MAX_SCRIPT_CHARS = 8000;

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The npm command of `c` (program `npm`), its first operand (the npm command) and whether it points elsewhere. */
function npmCommand(c: ShellCommand): { sub: string | null; elsewhere: boolean } | null {
  const [program, ...args] = c.words;
  if (!program || program.dynamic || program.text.split('/').pop() !== 'npm') return null;
  let sub: string | null = null;
  let elsewhere = false;
  for (const w of args) {
    if (w.dynamic) return { sub: null, elsewhere: true };
    if (ELSEWHERE.test(w.text)) elsewhere = true;
    if (sub === null && !w.text.startsWith('-')) sub = w.text;
  }
  return { sub, elsewhere };
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

export interface NpmScripts {
  /** Commands of the line that run scripts no one can know, by index, with why. */
  unseen: Map<number, string>;
  /** The commands the scripts run (deny and ask rules apply to them as to the line's own). */
  runs: ShellCommand[];
}

/** The scripts the line's npm commands run (see the module comment). Never throws. */
export async function npmScripts(
  a: ShellAnalysis,
  env: PathEnv,
  ctx: Pick<PermissionContext, 'exists' | 'readFile'>,
): Promise<NpmScripts> {
  const unseen = new Map<number, string>();
  const runs: ShellCommand[] = [];
  const read = new Set<string>();
  for (const [k, c] of a.commands.entries()) {
    const npm = npmCommand(c);
    if (!npm || (npm.sub !== null && SCRIPT_FREE.has(npm.sub))) continue;
    const why = await scriptsOf(a, c, npm.elsewhere, env, ctx, read, runs);
    if (why) unseen.set(k, why);
  }
  return { unseen, runs };
}

async function scriptsOf(
  a: ShellAnalysis,
  c: ShellCommand,
  elsewhere: boolean,
  env: PathEnv,
  ctx: Pick<PermissionContext, 'exists' | 'readFile'>,
  read: Set<string>,
  runs: ShellCommand[],
): Promise<string | null> {
  const { exists, readFile } = ctx;
  if (elsewhere) return 'npm runs the scripts of a package the command names at run time or elsewhere';
  const cwds = candidateCwds(env, c.cdTrail === undefined ? [] : c.cdTrail);
  if (cwds === null || !exists || !readFile) return 'npm runs package scripts the analysis cannot read here';
  for (const cwd of cwds) {
    let file: string | null;
    let text: string;
    try {
      file = await packageFile(resolvePath('/', cwd, env.home), exists);
      if (file === null || read.has(file)) continue;
      if (lineMayWrite(a, file, env))
        return `npm runs the scripts of ${file}, which the line may change first`;
      text = await readFile(file);
    } catch {
      return 'npm runs package scripts the analysis cannot read here';
    }
    read.add(file);
    let scripts: unknown;
    try {
      scripts = (JSON.parse(text) as { scripts?: unknown } | null)?.scripts;
    } catch {
      // npm refuses a package.json it cannot parse: it runs nothing.
      continue;
    }
    if (!scripts || typeof scripts !== 'object') continue;
    const entries = Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string');
    if (entries.length > MAX_SCRIPTS || entries.some(([, s]) => s.length > MAX_SCRIPT_CHARS))
      return `npm runs more scripts of ${file} than the analysis reads`;
    const dir = file.slice(0, file.lastIndexOf('/')) || '/';
    for (const [name, script] of entries) {
      // npm runs a script in the package's folder.
      const analysis = await analyzeShell(`cd ${shQuote(dir)} && ${script}`);
      if (!analysis.parsed)
        return `the ${name} script of ${file} cannot be read: ${analysis.parseError ?? 'parse error'}`;
      // Messages name the script the command comes from.
      for (const run of analysis.commands)
        runs.push({ ...run, source: `${run.source} (the ${name} script of ${file}, which npm runs)` });
    }
  }
  return null;
}
