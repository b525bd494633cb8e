/**
 * Dependency specs (`^1.2.0`, `latest`, `npm:other@^2`) and picking a version from a packument the way
 * npm does (npm-pick-manifest): the `latest` tag when it satisfies the range, else the highest
 * satisfying version, preferring versions that are not deprecated; prereleases only when the range
 * names one (semver's rule).
 */
import semver from 'semver';
import { NpmError } from './errors.ts';
import type { Manifest, Packument } from './registry.ts';

export type Spec =
  /** A registry spec: `name` is the real package name (differs from the folder name for aliases). */
  | { kind: 'range' | 'version' | 'tag'; name: string; fetchSpec: string; raw: string }
  | { kind: 'unsupported'; name: string; raw: string; why: string };

const UNSUPPORTED: [RegExp, string][] = [
  [/^(file|link):/, 'local folders and tarballs (file:, link:)'],
  [/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/, 'git dependencies'],
  [/^https?:/, 'tarball URLs'],
  [/^workspace:/, 'workspace: specs'],
  [/^[^@\s/]+\/[^@\s/]+(#.*)?$/, 'GitHub shorthand (user/repo)'],
  [/^(\.{0,2}\/|~\/)/, 'local folders'],
  [/\.t(ar\.)?gz$/, 'local tarballs'],
];

/** Parses the spec of dependency `name` (as package.json holds it). Never throws. */
export function parseSpec(name: string, raw: string): Spec {
  const spec = raw.trim();
  if (spec.startsWith('npm:')) {
    const target = splitNameSpec(spec.slice(4));
    if (!target.name) return { kind: 'unsupported', name, raw, why: 'an empty npm: alias' };
    return { ...parseSpec(target.name, target.spec), raw };
  }
  for (const [re, why] of UNSUPPORTED) if (re.test(spec)) return { kind: 'unsupported', name, raw, why };
  if (spec === '' || spec === '*' || spec === 'x') return { kind: 'range', name, fetchSpec: '*', raw };
  if (semver.valid(spec, { loose: true }))
    return { kind: 'version', name, fetchSpec: semver.clean(spec, { loose: true })!, raw };
  if (semver.validRange(spec, { loose: true })) return { kind: 'range', name, fetchSpec: spec, raw };
  if (/^[A-Za-z][\w.-]*$/.test(spec)) return { kind: 'tag', name, fetchSpec: spec, raw };
  return { kind: 'unsupported', name, raw, why: 'an invalid version range' };
}

/** `@scope/name@^1` → { name: '@scope/name', spec: '^1' }; no `@spec` → spec ''. */
export function splitNameSpec(arg: string): { name: string; spec: string } {
  const at = arg.indexOf('@', arg.startsWith('@') ? 1 : 0);
  return at < 0 ? { name: arg, spec: '' } : { name: arg.slice(0, at), spec: arg.slice(at + 1) };
}

/** A valid npm package name (lower-case, URL-safe, optionally scoped). */
export function validPackageName(name: string): boolean {
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name) && name.length <= 214;
}

/** True when an installed `version` of `packageName` satisfies `spec` (npm's dep-valid rules). */
export function satisfies(packageName: string, version: string, spec: Spec): boolean {
  if (spec.kind === 'unsupported' || spec.name !== packageName) return false;
  // A tag can move; whatever was installed for it stays valid (npm does the same).
  if (spec.kind === 'tag' || spec.fetchSpec === '*') return true;
  return semver.satisfies(version, spec.fetchSpec, { loose: true });
}

export function noMatchingVersion(spec: Spec, requiredBy?: string): NpmError {
  const wanted = `${spec.name}@${spec.kind === 'unsupported' ? spec.raw : spec.fetchSpec}`;
  return new NpmError('ETARGET', [
    'code ETARGET',
    `notarget No matching version found for ${wanted}.`,
    'notarget In most cases you or one of your dependencies are requesting',
    "notarget a package version that doesn't exist.",
    ...(requiredBy ? [`notarget (${wanted} is required by ${requiredBy})`] : []),
  ]);
}

/** Picks the version `spec` means in `packument`; throws ETARGET when there is none. */
export function pickManifest(packument: Packument, spec: Spec, requiredBy?: string): Manifest {
  const versions = packument.versions ?? {};
  const tags = packument['dist-tags'] ?? {};
  const found = (v: string | undefined) => (v && versions[v] ? { ...versions[v], version: v } : undefined);
  if (spec.kind === 'unsupported') throw noMatchingVersion(spec, requiredBy);
  if (spec.kind === 'tag') {
    const m = found(tags[spec.fetchSpec]);
    if (!m) throw noMatchingVersion(spec, requiredBy);
    return m;
  }
  if (spec.kind === 'version') {
    const m = found(spec.fetchSpec);
    if (!m) throw noMatchingVersion(spec, requiredBy);
    return m;
  }
  const range = spec.fetchSpec;
  const latest = found(tags.latest);
  if (
    latest &&
    !latest.deprecated &&
    (range === '*' || semver.satisfies(latest.version, range, { loose: true }))
  ) {
    return latest;
  }
  const candidates = Object.keys(versions)
    .filter((v) => semver.valid(v, { loose: true }) && semver.satisfies(v, range, { loose: true }))
    .sort((a, b) => {
      const da = versions[a].deprecated ? 1 : 0;
      const db = versions[b].deprecated ? 1 : 0;
      return da - db || semver.rcompare(a, b, { loose: true });
    });
  const m = found(candidates[0]) ?? (range === '*' ? latest : undefined);
  if (!m) throw noMatchingVersion(spec, requiredBy);
  return m;
}

/** What `npm i name@spec` saves: `^version` unless the user's range is narrower (npm's rule). */
export function savedRange(spec: Spec, version: string, exact: boolean, prefix: string): string {
  const prefixed = exact ? version : `${prefix}${version}`;
  if (spec.kind !== 'range' || spec.fetchSpec === '*') return prefixed;
  try {
    return semver.subset(prefixed, spec.fetchSpec, { loose: true }) ? prefixed : spec.raw;
  } catch {
    return spec.raw;
  }
}
