/**
 * git: the subcommands that only read (status, log, diff, show, branch listing...), its global options,
 * options that write a file (`--output`) or run an external program (`--ext-diff`), and which
 * subcommands throw work away.
 */
import {
  emptyProgramFacts as facts,
  mayNameDirectory,
  type ProgramFacts,
  treeIfDirectory,
  pathUse as use,
} from './facts.ts';
import type { ShellWord } from './types.ts';

/** git subcommands that only read (with the checks below). */
const GIT_READ_ONLY = new Set([
  'status',
  'log',
  'diff',
  'show',
  'branch',
  'rev-parse',
  'ls-files',
  'blame',
  'shortlog',
  'describe',
]);
const GIT_BRANCH_FLAGS = new Set(
  '-a --all -r --remotes -v -vv --verbose -l --list --show-current --no-color --no-column -i --ignore-case'.split(
    ' ',
  ),
);
const GIT_BRANCH_VALUE_FLAGS = new Set(
  '--contains --no-contains --merged --no-merged --points-at --sort --format --color --column'.split(' '),
);

/** Configuration keys that only change how git prints (`git -c color.ui=never log`). */
const HARMLESS_CONFIG =
  /^(color|column|advice|i18n|user|init|safe|blame)\.[^=]*=|^core\.(quotepath|autocrlf|safecrlf)=/;

/** Facts of `git`: read-only subcommands, global options, file-writing options. */
export function gitFacts(args: readonly ShellWord[]): ProgramFacts {
  const out = facts();
  out.problem = 'git changes the repository';
  if (args.some((w) => w.dynamic || w.glob)) {
    out.problem = 'an argument of git only known at run time could change what it does';
  }
  let k = 0;
  while (k < args.length && args[k].text.startsWith('-')) {
    const t = args[k].text;
    if (t === '--no-pager' || t === '--no-optional-locks' || t === '-P') k++;
    else if (t === '-C' && k + 1 < args.length) {
      out.paths.push(use(args[k + 1], 'read', true, true));
      k += 2;
    } else {
      out.problem = `git option ${t} is not known to be read-only`;
      // `-c alias.p=push`, `-c core.fsmonitor=x`, `--config-env=alias.p=VAR`: a configuration may name
      // another subcommand or a program git runs, so what runs is not what the words show.
      const value =
        t === '-c' || t === '--config-env' ? args[k + 1] : /^(-c.|--config-env=)/.test(t) ? args[k] : null;
      if (value) {
        const key = value.text.replace(/^(-c|--config-env=)/, '').toLowerCase();
        if (value.dynamic || !HARMLESS_CONFIG.test(key)) out.opaque = true;
      }
      return out;
    }
  }
  const sub = args[k]?.text;
  const rest = args.slice(k + 1);
  for (const w of rest) {
    // Abbreviated too (`--out=FILE`): parse-options takes an unambiguous prefix.
    const m = /^--out(?:p|pu|put)?(?:=(.*))?$/.exec(w.text);
    if (m) {
      out.paths.push(
        use(m[1] !== undefined ? { ...w, text: m[1] } : (rest[rest.indexOf(w) + 1] ?? w), 'write', true),
      );
      out.problem = 'git --output writes a file';
    }
  }
  if (out.problem !== 'git changes the repository') {
    // Operands of other subcommands may be files (add, rm, checkout...): maybe.
    for (const w of rest) if (!w.text.startsWith('-')) out.paths.push(use(w, 'unknown', false));
    return out;
  }
  if (sub === undefined || !GIT_READ_ONLY.has(sub)) {
    out.destructive = gitDestroys(
      sub,
      rest.map((w) => w.text),
    );
    for (const w of rest) if (!w.text.startsWith('-')) out.paths.push(use(w, 'unknown', false));
    if (sub !== undefined) out.problem = `git ${sub} is not a read-only git command`;
    return out;
  }
  if (rest.some((w) => /^--(ext-diff|textconv|open-files-in-pager)$/.test(w.text) || /^-O/.test(w.text))) {
    out.problem = `git ${sub} with an option that runs an external program`;
    return out;
  }
  if (sub === 'branch' && !gitBranchLists(rest.map((w) => w.text))) {
    out.problem = 'git branch that creates, deletes or changes branches';
    return out;
  }
  // Operands of a read-only subcommand may be files whose content it prints (`git blame .env`,
  // `git diff --no-index .env x`, `git log -p -- .env`), or a revision and a path (`git show HEAD:.env`).
  // git diff compares the file system by itself when a path is outside the working tree (`git diff /mnt
  // secrets`): an absolute path or one that climbs out may be.
  const noIndex =
    sub === 'diff' &&
    rest.some(
      (w) =>
        w.text === '--no-index' ||
        (!w.text.startsWith('-') && (w.dynamic || /^(\/|\.\.(\/|$))/.test(w.text))),
    );
  for (const [k, w] of rest.entries()) {
    // `git log -L1,5:FILE`, `-L :func:FILE`: FILE's history, its lines printed.
    const range = sub === 'log' ? /^-L(.*)$/.exec(w.text) : null;
    if (range) {
      const value = range[1] !== '' ? range[1] : (rest[k + 1]?.text ?? '');
      const file = value.slice(value.lastIndexOf(':') + 1);
      if (file) out.paths.push(use({ ...w, text: file, dynamic: w.dynamic }, 'read', true));
      continue;
    }
    if (w.text.startsWith('-')) continue;
    // `git diff --no-index A B` compares two files of the file system.
    if (noIndex) {
      // A directory is compared file by file, down the whole tree.
      out.paths.push(treeIfDirectory(use(w, 'read', true, mayNameDirectory(w))));
      continue;
    }
    // A path from the top may name a directory, whose whole tree git prints (`:(top)secrets`).
    // A directory pathspec (`git log -p -- secrets`) prints what is below it.
    const paths = gitPaths(w);
    for (const path of paths) out.paths.push(treeIfDirectory(use(path, 'read', false, paths.length > 1)));
  }
  out.problem = null;
  return out;
}

/** Directories above the cwd a path from the repository's top may be relative to (`REV:PATH`). */
const TOP_DEPTH = 8;

/**
 * The files a revision-or-path operand may name. `REV:PATH` (`HEAD:secrets/key.pem`, `:0:PATH`, `:PATH`
 * the index, `HEAD@{1}:PATH`) names PATH from the repository's top, which may be the cwd or any
 * directory above it (`./PATH` and `../PATH` are from the cwd); so do pathspecs with `:/` or `:(top)`.
 * A plain operand is a path from the cwd (or a revision).
 */
function gitPaths(w: ShellWord): ShellWord[] {
  const t = w.text;
  let fromTop: string | null = null;
  const magic = /^:(\([^)]*\)|[/!^]+)(.*)$/.exec(t);
  if (magic) {
    // Pathspec magic: `:/PATH`, `:(top)PATH` are from the top; `:!PATH` excludes (nothing read).
    if (/[!^]/.test(magic[1]) && !magic[1].startsWith('(')) return [];
    if (magic[1].includes('/') || /top/.test(magic[1])) fromTop = magic[2];
    else return [{ ...w, text: magic[2] }];
  } else {
    // The path of `REV:PATH` starts after the revision's last `}` (`HEAD@{12:00}:x`), at its first `:`.
    const brace = t.lastIndexOf('}');
    const colon = t.indexOf(':', brace + 1);
    if (colon < 0) return t === '' ? [] : [w];
    // `:0:PATH`: a stage of the index.
    fromTop = t.slice(colon + 1).replace(colon === 0 ? /^[0-3]:/ : /^$/, '');
  }
  if (fromTop === '' || fromTop === null) return [];
  if (/^\.\.?(\/|$)/.test(fromTop)) return [{ ...w, text: fromTop }];
  return Array.from({ length: TOP_DEPTH + 1 }, (_, k) => ({ ...w, text: `${'../'.repeat(k)}${fromTop}` }));
}

function gitBranchLists(rest: readonly string[]): boolean {
  const listMode = rest.some((v) => v === '--list' || v === '-l');
  for (let j = 0; j < rest.length; j++) {
    const v = rest[j];
    const name = v.split('=')[0];
    if (GIT_BRANCH_FLAGS.has(v)) continue;
    if (GIT_BRANCH_VALUE_FLAGS.has(name)) {
      if (!v.includes('=') && name !== '--color' && name !== '--column') j++;
      continue;
    }
    if (!v.startsWith('-') && listMode) continue;
    return false;
  }
  return true;
}

function gitDestroys(sub: string | undefined, rest: readonly string[]): boolean {
  if (sub === 'clean' || sub === 'restore') return true;
  if (sub === 'reset') return rest.includes('--hard') || rest.includes('--merge');
  if (sub === 'checkout') return rest.includes('--') || rest.includes('.') || rest.includes('-f');
  if (sub === 'push') return rest.some((a) => a === '-f' || a.startsWith('--force') || a === '--delete');
  if (sub === 'branch') return rest.some((a) => a === '-D' || a === '--delete');
  return false;
}

/** A git command the analysis let through as read-only: what it runs depends on its repository. */
export function isReadOnlyGit(c: {
  words: readonly ShellWord[];
  readOnly: boolean;
  opaque: boolean;
}): boolean {
  const program = c.words[0];
  return c.readOnly && !c.opaque && !!program && !program.dynamic && /(^|\/)git$/.test(program.text);
}

/**
 * Where git starts looking for its repository, relative to the cwd (`-C a -C b` → `a/b`; '' for the cwd
 * itself), or null when a `-C` value is only known at run time.
 */
export function gitStartDir(words: readonly ShellWord[]): string | null {
  let dir = '';
  for (let k = 1; k < words.length && words[k].text.startsWith('-'); k++) {
    if (words[k].text !== '-C') continue;
    const value = words[k + 1];
    if (!value || value.dynamic || value.tilde) return null;
    dir = value.text.startsWith('/') || dir === '' ? value.text : `${dir}/${value.text}`;
    k++;
  }
  return dir;
}

/** Whether a path exists: true, false, or null when it cannot be told (outside the sandbox's reach). */
export type PathProbe = (abs: string) => Promise<boolean | null>;

const parentOf = (abs: string): string => abs.slice(0, abs.lastIndexOf('/')) || '/';

/**
 * Why git, started in the directory `start` (absolute, normalized, symlinks followed), may read a
 * configuration the agent could have written, or null when it finds the workspace's own repository
 * (`ROOT/.git`, a protected path). Git walks up from `start`: at each directory it takes `DIR/.git`,
 * else DIR itself when DIR looks like a repository (a bare one: `HEAD`, `objects/`, `refs/`, and a
 * `config` that may set core.fsmonitor, core.pager, core.hooksPath, aliases or diff drivers). A bare
 * repository written into the workspace, a nested repository (its `.git` may have come from a copy or an
 * archive), no repository in the workspace (git goes on above it), or a start outside it: untrusted.
 */
export async function untrustedGitRepository(
  start: string,
  root: string,
  exists: PathProbe,
): Promise<string | null> {
  const inside = (dir: string, abs: string) => abs === dir || abs.startsWith(dir === '/' ? '/' : `${dir}/`);
  if (inside(`${root}/.git`, start)) return null;
  for (let dir = start; ; dir = parentOf(dir)) {
    if (!inside(root, dir)) return `git would look for its repository in ${dir}, outside the workspace`;
    const dotGit = await exists(`${dir}/.git`);
    if (dotGit === null) return `whether ${dir} holds a repository cannot be told`;
    if (dotGit)
      return dir === root ? null : `git would use the repository of ${dir}, not the workspace's own`;
    if (dir === root) return 'the workspace holds no repository: git would look for one above it';
    const head = await exists(`${dir}/HEAD`);
    if (head !== false) return `${dir} may be a bare repository, whose configuration git would run`;
  }
}
