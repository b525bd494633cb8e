/**
 * Paths whose meaning links change in ways the written text does not show:
 * - `..` after a link climbs from where the link leads, not from where it sits (`l/../../secrets/key.pem`
 *   with `l -> d/e` is secrets/key.pem): such a path is followed component by component (physicalPaths);
 * - a link moved or copied (`mv d/e/k d/k`, `cp -P`, `cp -r` of a tree holding links) keeps its text, so
 *   from its new place it may lead anywhere, and an archive or a patch may hold links: after a line moves
 *   or copies a link (one it made, or one that exists) or unpacks something, the paths of its later
 *   commands are only known at run time (withMovedLinks);
 * - /dev/null is a plain file of just-bash's, which a link may replace (withDeviceWrites).
 */
import { programName } from '../../shell/index.ts';
import { isInside, resolvePath } from './paths.ts';
import { candidateCwds, type PathEnv, resolveRef, withReal } from './subjects.ts';
import type { BashPermissionMatcher, PermissionContext, ShellPathRef } from './types.ts';

/** Most paths with `..` followed component by component in one call. */
const MAX_PHYSICAL = 64;

const hasDotDot = (text: string): boolean => text.split('/').includes('..');

/**
 * For each path of the line with a `..` (in its text or in the `cd`s before it), where it leads when each
 * component is followed as the kernel does (a link first, then its `..`), when that differs from the
 * text's own reading. Never throws.
 */
export async function physicalPaths(
  m: BashPermissionMatcher,
  env: PathEnv,
  realpath: NonNullable<PermissionContext['realpath']>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const real = async (abs: string): Promise<string> => {
    try {
      const r = await realpath(abs);
      return typeof r === 'string' && r.startsWith('/') ? r : abs;
    } catch {
      return abs;
    }
  };
  const physical = async (cwd: string, text: string): Promise<string> => {
    let at = await real(text.startsWith('/') ? '/' : cwd);
    for (const part of text.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        const resolved = await real(at);
        at = resolved.slice(0, resolved.lastIndexOf('/')) || '/';
      } else at = `${at === '/' ? '' : at}/${part}`;
    }
    return real(at);
  };
  let count = 0;
  for (const c of m.commands) {
    for (const ref of c.paths) {
      if (ref.dynamic || ref.tilde) continue;
      const climbs = hasDotDot(ref.text) || (ref.cdTrail ?? []).some(hasDotDot);
      if (!climbs || ++count > MAX_PHYSICAL) continue;
      for (const cwd of candidateCwds(env, ref.cdTrail ?? []) ?? []) {
        const lexical = resolvePath(cwd, ref.text, env.home);
        const where = await physical(await real(cwd), ref.text);
        if (where !== lexical) out.set(lexical, where);
      }
    }
  }
  return out;
}

const MOVERS = new Set(['mv', 'cp', 'rsync', 'install']);
/**
 * Programs that write files an archive, a patch or a repository describes, links among them (`tar -xf
 * a.tar` may make `s -> ../secrets`): after one that is not read-only, later paths may pass through them.
 */
const LINK_MAKERS = new Set([
  'tar',
  'bsdtar',
  'unzip',
  '7z',
  '7za',
  'cpio',
  'pax',
  'ar',
  'git',
  'patch',
  'busybox',
]);

/** `ref` as a path only known at run time. */
const unknownPath = (ref: ShellPathRef): ShellPathRef => ({ ...ref, dynamic: true });

/**
 * The line with the paths of every command after one that moves or copies a link made earlier in the
 * line, or a path that is (or passes through) an existing link, marked as only known at run time.
 */
export function withMovedLinks(m: BashPermissionMatcher, env: PathEnv): BashPermissionMatcher {
  let linkMade = false;
  let moved = false;
  const throughLink = (ref: ShellPathRef): boolean =>
    (resolveRef(env, ref) ?? []).some((abs) => {
      const r = env.real?.get(abs);
      return r !== undefined && r !== abs;
    });
  const commands = m.commands.map((c) => {
    const out = moved ? { ...c, paths: c.paths.map(unknownPath) } : c;
    if (c.links && c.links.length > 0) linkMade = true;
    const program = programName(c);
    if (MOVERS.has(program) && (linkMade || c.paths.some(throughLink))) moved = true;
    if (LINK_MAKERS.has(program) && !c.readOnly) moved = true;
    return out;
  });
  return moved ? { ...m, commands } : m;
}

/**
 * The line with its writes to /dev/null (ShellCommand.devices) as paths written where they may change a
 * file: where the sandbox shows a link there (an earlier call's, which may lead anywhere), or the line
 * writes, moves or links something there, or runs code that may. Elsewhere each is the plain file
 * just-bash makes and stays out of the paths, as writing it changes nothing (`ls 2>/dev/null` stays
 * read-only).
 */
export function withDeviceWrites(m: BashPermissionMatcher, env: PathEnv): BashPermissionMatcher {
  if (!m.commands.some((c) => c.devices && c.devices.length > 0)) return m;
  const writes = m.commands.flatMap((c) => [
    ...c.paths.filter((p) => p.access !== 'read'),
    ...(c.links ?? []).map((l) => l.at),
  ]);
  const opaque = m.commands.some((c) => c.opaque);
  const writtenThere = (abs: string): boolean =>
    writes.some((ref) => {
      const at = ref.glob ? null : resolveRef(env, ref);
      return at === null || at.some((w) => w === abs || (ref.recursive && isInside(w, abs)));
    });
  const changes = (ref: ShellPathRef): boolean =>
    opaque ||
    env.realIncomplete === true ||
    (resolveRef(env, ref) ?? [ref.text]).some((abs) => withReal(abs, env).length > 1 || writtenThere(abs));
  let changed = false;
  const commands = m.commands.map((c) => {
    const written = (c.devices ?? []).filter(changes);
    if (written.length === 0) return c;
    changed = true;
    // As `ls > notes.txt`: the program stays what it is; the line writes a file.
    const devices = (c.devices ?? []).filter((d) => !written.includes(d));
    return { ...c, paths: [...c.paths, ...written], devices };
  });
  return changed ? { ...m, commands, readOnly: false, concurrencySafe: false } : m;
}
