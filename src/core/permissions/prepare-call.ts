/**
 * Preparing one call for the permission engine: the tool's matcher (made once, when the call is
 * prepared), a Bash command read in its shell session (HOME, CDPATH, PATH, read-only git in a repository
 * that is not surely the workspace's, links the line makes), the real paths of what it touches, and the
 * rule book.
 */
import {
  gitStartDir,
  inSession,
  isReadOnlyGit,
  type PathProbe,
  untrustedGitRepository,
  withOpaqueCommands,
} from '../../shell/index.ts';
import type { AnyTool } from '../tool.ts';
import { physicalPaths, withDeviceWrites, withMovedLinks } from './link-paths.ts';
import { isInside, resolvePath } from './paths.ts';
import { type RuleBook, ruleBook } from './rule-hits.ts';
import { candidateCwds, type PathEnv, resolveRef, withReal } from './subjects.ts';
import type {
  BashPermissionMatcher,
  PermissionContext,
  PermissionMatcher,
  PermissionRule,
  ShellPathRef,
  TreeEntry,
} from './types.ts';

/** The mode and rules in force for one decision. */
export interface DecisionInput {
  tool: AnyTool;
  input: unknown;
  permCtx: PermissionContext;
  rules: readonly PermissionRule[];
  /**
   * What the tool's `preparePermissionMatcher` made of the input when the call was prepared ('failed'
   * when it threw). Absent: the engine prepares it itself (direct calls, tests).
   */
  prepared?: PreparedMatcher;
}

/** A tool's matcher, none, or a marker that preparing it failed (the engine then asks). */
export type PreparedMatcher = PermissionMatcher | undefined | 'failed';

/** Runs the tool's `preparePermissionMatcher` once. Never throws. */
export async function prepareMatcher(tool: AnyTool, input: unknown): Promise<PreparedMatcher> {
  if (!tool.preparePermissionMatcher) return undefined;
  try {
    const m = (await tool.preparePermissionMatcher(input as never)) as PermissionMatcher | undefined;
    return m && (m.kind === 'bash' || m.kind === 'file' || m.kind === 'domain') ? m : undefined;
  } catch {
    return 'failed';
  }
}

/**
 * Most paths of one call whose real path is looked up. A call with more is checked as if any of its paths
 * could lead anywhere (PathEnv.realIncomplete): a link past the limit is not followed.
 */
const MAX_REALPATHS = 256;

/** The absolute paths a matcher names (every candidate of every shell path reference). */
function touchedPaths(matcher: PermissionMatcher | undefined, env: PathEnv): string[] {
  if (matcher?.kind === 'file') return [resolvePath(env.cwd, matcher.path, env.home)];
  if (matcher?.kind !== 'bash') return [];
  const out = new Set<string>();
  for (const command of [...matcher.commands, ...(matcher.runs ?? [])]) {
    for (const ref of [...command.paths, ...(command.devices ?? [])]) {
      for (const abs of resolveRef(env, ref) ?? []) out.add(abs);
    }
  }
  return [...out];
}

/** Where each path a call touches really leads (symlinks followed); paths that fail are left out. */
async function realPaths(
  matcher: PermissionMatcher | undefined,
  env: PathEnv,
  realpath: PermissionContext['realpath'],
): Promise<Map<string, string> | 'incomplete' | undefined> {
  if (!realpath) return undefined;
  const real = new Map<string, string>();
  const touched = touchedPaths(matcher, env);
  if (touched.length > MAX_REALPATHS) return 'incomplete';
  await Promise.all(
    touched.map(async (abs) => {
      try {
        const r = await realpath(abs);
        if (typeof r === 'string' && r.startsWith('/') && r !== abs) real.set(abs, r);
      } catch {
        // Unknown: the rules match the path as written.
      }
    }),
  );
  return real;
}

/**
 * Read-only git commands whose repository is not surely the workspace's own (a bare repository written
 * into the workspace, a nested one, none at all, a directory only known at run time), by index, with
 * the reason: git runs what such a repository's configuration names (core.fsmonitor on `git status`,
 * core.pager, aliases, diff drivers), which no rule sees.
 */
async function untrustedGit(
  m: BashPermissionMatcher,
  env: PathEnv,
  permCtx: PermissionContext,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const probe: PathProbe = async (abs) => {
    if (!permCtx.exists) return null;
    try {
      return (await permCtx.exists(abs)) === true;
    } catch {
      return null;
    }
  };
  for (const [k, c] of m.commands.entries()) {
    if (!isReadOnlyGit(c)) continue;
    const start = gitStartDir(c.words);
    const cwds = candidateCwds(env, c.cdTrail === undefined ? [] : c.cdTrail);
    if (start === null || cwds === null) {
      out.set(k, 'git runs in a directory only known at run time, whose repository may configure programs');
      continue;
    }
    for (const cwd of cwds) {
      let dir = resolvePath(cwd, start || '.', env.home);
      try {
        if (permCtx.realpath) dir = resolvePath('/', await permCtx.realpath(dir), env.home);
      } catch {
        // As written.
      }
      const why = await untrustedGitRepository(dir, env.root, probe);
      if (why) {
        out.set(k, `${why}: git may run programs its configuration names`);
        break;
      }
    }
  }
  return out;
}

/** Most links of one line followed (the rest are left out: a line making more is unusual). */
const MAX_LINKS = 64;

/**
 * The analysis with, for each command after one that makes a link (`ln -s ../config d/c`), its paths
 * through the link also as where they lead (`d/c/prod.env` as `config/prod.env`): the link does not
 * exist yet when the call is checked, so the sandbox's realpath cannot follow it. A symbolic link's
 * text is read from the link's directory, a hard link's source from the cwd; followed twice (a link
 * through a link).
 */
function withLineLinks(m: BashPermissionMatcher, env: PathEnv): BashPermissionMatcher {
  if (!m.commands.some((c) => c.links && c.links.length > 0)) return m;
  const links: Array<{ at: string; to: string }> = [];
  const follow = (abs: string): string[] =>
    links.filter((l) => isInside(l.at, abs)).map((l) => `${l.to}${abs.slice(l.at.length)}`);
  const commands = m.commands.map((command) => {
    let extra: ShellPathRef[] = [];
    if (links.length > 0) {
      for (const ref of command.paths) {
        for (const abs of resolveRef(env, ref) ?? []) {
          const once = follow(abs);
          for (const to of new Set([...once, ...once.flatMap(follow)])) {
            if (to !== abs) extra.push({ ...ref, text: to, dynamic: false, tilde: false, cdTrail: [] });
          }
        }
      }
      extra = extra.slice(0, MAX_LINKS);
    }
    for (const link of command.links ?? []) {
      for (const at of resolveRef(env, link.at) ?? []) {
        const tos =
          link.symbolic && !link.to.dynamic && !link.to.text.startsWith('/')
            ? [resolvePath(at.slice(0, at.lastIndexOf('/')) || '/', link.to.text, env.home)]
            : resolveRef(env, link.to);
        for (const to of tos ?? []) if (links.length < MAX_LINKS) links.push({ at, to });
      }
    }
    return extra.length > 0 ? { ...command, paths: [...command.paths, ...extra] } : command;
  });
  return { ...m, commands };
}

/** Most operands of one line looked up as possible directories (the rest count as directories). */
const MAX_DIRECTORY_PROBES = 64;

/**
 * The analysis with each path that is gone through when it names a directory (an unknown program's
 * operand: `npx rimraf src`, `npx prettier --write .`) marked recursive where the sandbox has a directory
 * there, or cannot tell: a rule about anything below it may then match.
 */
async function withDirectoryTrees(
  m: BashPermissionMatcher,
  env: PathEnv,
  isDirectory: PermissionContext['isDirectory'],
): Promise<BashPermissionMatcher> {
  if (!m.commands.some((c) => c.paths.some((ref) => ref.ifDirectory))) return m;
  let probes = 0;
  const directory = async (abs: string): Promise<boolean> => {
    if (!isDirectory || ++probes > MAX_DIRECTORY_PROBES) return true;
    try {
      return (await isDirectory(abs)) !== false;
    } catch {
      return true;
    }
  };
  const commands = [];
  for (const command of m.commands) {
    const paths: ShellPathRef[] = [];
    for (const ref of command.paths) {
      let tree = false;
      if (ref.ifDirectory && !ref.recursive) {
        // A path only known at run time already matches every rule (subjects.ts).
        for (const abs of resolveRef(env, ref) ?? []) if (!tree) tree = await directory(abs);
      }
      paths.push(tree ? { ...ref, recursive: true } : ref);
    }
    commands.push({ ...command, paths });
  }
  return { ...m, commands };
}

/** Most directories of one line whose trees are listed, and most entries a tree may hold. */
const MAX_TREES = 8;
export const MAX_TREE_ENTRIES = 5000;

/**
 * What is below each directory a line reads through (`grep -r`, `find`, `cp -r src build`), as the sandbox
 * lists it now, where nothing the line does can change it: so a rule that matches nothing there matches
 * nothing it reads. None is listed for a line that runs code it does not show, an unknown program, or
 * makes links; nor a directory the line writes into (or below one it writes), nor one whose real path
 * differs (a link).
 */
async function readTrees(
  m: BashPermissionMatcher,
  env: PathEnv,
  listTree: PermissionContext['listTree'],
): Promise<Map<string, readonly TreeEntry[]> | undefined> {
  if (!listTree || !m.parsed) return undefined;
  // Every command's program known, none running unseen code or making links.
  const known = m.commands.every(
    (c) => !c.opaque && !c.links?.length && c.paths.every((p) => p.access !== 'unknown'),
  );
  if (!known) return undefined;
  // What the line writes, each where it may be; a write only known at run time, or a glob, may be anywhere.
  const writes: Array<{ abs: string; recursive: boolean }> = [];
  for (const c of m.commands)
    for (const ref of c.paths) {
      if (ref.access === 'read') continue;
      const at = ref.glob ? null : resolveRef(env, ref);
      if (at === null) return undefined;
      for (const abs of at) writes.push({ abs, recursive: ref.recursive });
    }
  // A tree the line writes into (or below a tree it writes) changes while it runs: not listed.
  const untouched = (dir: string) =>
    !writes.some((w) => isInside(dir, w.abs) || (w.recursive && isInside(w.abs, dir)));
  const dirs = new Set<string>();
  for (const c of m.commands)
    for (const ref of c.paths)
      if (ref.recursive && ref.access === 'read')
        for (const abs of resolveRef(env, ref) ?? [])
          if (withReal(abs, env).length === 1 && untouched(abs)) dirs.add(abs);
  if (dirs.size === 0 || dirs.size > MAX_TREES) return undefined;
  const trees = new Map<string, readonly TreeEntry[]>();
  await Promise.all(
    [...dirs].map(async (dir) => {
      try {
        const entries = await listTree(dir, MAX_TREE_ENTRIES);
        if (entries) trees.set(dir, entries);
      } catch {
        // Unknown: a rule may match anything below.
      }
    }),
  );
  return trees;
}

/** The matcher, the rules and the paths of one call. */
export interface Prepared {
  prepared: PreparedMatcher;
  matcher: PermissionMatcher | undefined;
  book: RuleBook;
  /** Where paths resolve, with the real paths (deny, ask and safety checks). */
  env: PathEnv;
  /** The same without the real paths (the mode and allow rules go by the path as written). */
  writtenEnv: PathEnv;
}

export async function prepare(d: DecisionInput): Promise<Prepared> {
  const { tool, input, permCtx } = d;
  const prepared = 'prepared' in d ? d.prepared : await prepareMatcher(tool, input);
  let matcher = prepared === 'failed' ? undefined : prepared;
  let writtenEnv: PathEnv = { root: permCtx.root, cwd: permCtx.cwd, home: permCtx.home ?? permCtx.root };
  if (matcher?.kind === 'bash') {
    // The command runs in the sandbox's shell session: its cwd, and what HOME, CDPATH and PATH mean.
    const view = inSession(matcher, permCtx.shell, {
      defaultHome: writtenEnv.home,
      trustedPath: permCtx.trustedPath,
    });
    writtenEnv = {
      ...writtenEnv,
      cwd: permCtx.shell?.cwd ?? permCtx.cwd,
      shellHome: view.home,
      cdpath: view.cdpath,
    };
    const git = view.analysis.parsed
      ? await untrustedGit({ ...view.analysis, kind: 'bash' }, writtenEnv, permCtx)
      : new Map<number, string>();
    // The npm reader (and the program tables it needs) loads with the first line that runs npm.
    const npm =
      view.analysis.parsed && view.analysis.commands.some((c) => c.words[0]?.text.split('/').pop() === 'npm')
        ? await (await import('./npm-scripts.ts')).npmScripts(view.analysis, writtenEnv, permCtx)
        : { unseen: new Map<number, string>(), runs: [] };
    matcher = {
      ...withOpaqueCommands(view.analysis, new Map([...git, ...npm.unseen])),
      kind: 'bash',
      ...(npm.runs.length ? { runs: npm.runs } : {}),
    };
  }
  // A write to /dev/null the line itself may change into a file's (`ln -sf x /dev/null`), before the
  // links the line makes are followed; one to a link an earlier call made, once real paths are known.
  if (matcher?.kind === 'bash') matcher = withDeviceWrites(matcher, writtenEnv);
  if (matcher?.kind === 'bash') matcher = withLineLinks(matcher, writtenEnv);
  if (matcher?.kind === 'bash') matcher = await withDirectoryTrees(matcher, writtenEnv, permCtx.isDirectory);
  const real = await realPaths(matcher, writtenEnv, permCtx.realpath);
  let withRealPaths: PathEnv =
    real === 'incomplete'
      ? { ...writtenEnv, realIncomplete: true }
      : real
        ? { ...writtenEnv, real }
        : writtenEnv;
  if (matcher?.kind === 'bash' && real instanceof Map && permCtx.realpath) {
    // `..` after a link climbs from where the link leads.
    for (const [abs, where] of await physicalPaths(matcher, writtenEnv, permCtx.realpath))
      real.set(abs, where);
    withRealPaths = { ...writtenEnv, real };
  }
  // A moved or copied link, or an unpacked archive, may lead anywhere.
  if (matcher?.kind === 'bash') matcher = withMovedLinks(matcher, withRealPaths);
  if (matcher?.kind === 'bash') matcher = withDeviceWrites(matcher, withRealPaths);
  const trees =
    matcher?.kind === 'bash' ? await readTrees(matcher, withRealPaths, permCtx.listTree) : undefined;
  const env = trees ? { ...withRealPaths, trees } : withRealPaths;
  return { prepared, matcher, book: ruleBook(d.rules, tool), env, writtenEnv };
}
