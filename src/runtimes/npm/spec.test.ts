/** Specs and version picking, as npm (npm-package-arg, npm-pick-manifest) treats them. */
import { describe, expect, it } from 'vitest';
import { parseArgs, parseNpmrc } from './config.ts';
import type { Packument } from './registry.ts';
import { parseSpec, pickManifest, savedRange, splitNameSpec } from './spec.ts';

const packument = (
  versions: string[],
  tags: Record<string, string>,
  deprecated: string[] = [],
): Packument => ({
  name: 'p',
  'dist-tags': tags,
  versions: Object.fromEntries(
    versions.map((v) => [
      v,
      { name: 'p', version: v, ...(deprecated.includes(v) ? { deprecated: 'old' } : {}) },
    ]),
  ),
});

const pick = (doc: Packument, raw: string) => pickManifest(doc, parseSpec('p', raw)).version;

describe('pickManifest', () => {
  const doc = packument(['1.0.0', '1.1.0', '1.2.0-rc.1', '2.0.0', '2.1.0', '3.0.0-beta.2'], {
    latest: '2.0.0',
    next: '3.0.0-beta.2',
  });

  it('prefers the latest tag when it satisfies, else the highest satisfying version', () => {
    expect(pick(doc, '^2.0.0')).toBe('2.0.0');
    expect(pick(doc, '*')).toBe('2.0.0');
    expect(pick(doc, '')).toBe('2.0.0');
    expect(pick(doc, '>=2.1.0')).toBe('2.1.0');
    expect(pick(doc, '^1.0.0')).toBe('1.1.0');
    expect(pick(doc, '1.0.0')).toBe('1.0.0');
  });

  it('takes prereleases only when the range names one, or through a tag', () => {
    expect(pick(doc, '>=1.1.0 <2')).toBe('1.1.0');
    expect(pick(doc, '^1.2.0-rc.0')).toBe('1.2.0-rc.1');
    expect(pick(doc, 'next')).toBe('3.0.0-beta.2');
    expect(() => pick(doc, '^3.0.0')).toThrow(/No matching version found for p@\^3\.0\.0/);
  });

  it('avoids deprecated versions when another satisfies', () => {
    const d = packument(['1.0.0', '1.1.0'], { latest: '1.1.0' }, ['1.1.0']);
    expect(pick(d, '^1.0.0')).toBe('1.0.0');
    expect(pick(d, '1.1.0')).toBe('1.1.0');
  });

  it('unknown tags and versions are ETARGET', () => {
    expect(() => pick(doc, 'canary')).toThrow(/notarget/);
    expect(() => pick(doc, '9.9.9')).toThrow(/notarget/);
  });
});

describe('parseSpec', () => {
  it('classifies registry specs and names what is not supported', () => {
    expect(parseSpec('a', '^1.2.3').kind).toBe('range');
    expect(parseSpec('a', 'v1.2.3')).toMatchObject({ kind: 'version', fetchSpec: '1.2.3' });
    expect(parseSpec('a', 'beta').kind).toBe('tag');
    expect(parseSpec('a', 'npm:b@^2')).toMatchObject({ kind: 'range', name: 'b', fetchSpec: '^2' });
    for (const [raw, why] of [
      ['file:../x', 'local folders'],
      ['git+https://x/y.git', 'git'],
      ['github:u/r', 'git'],
      ['user/repo', 'GitHub shorthand'],
      ['https://x/y.tgz', 'tarball URLs'],
      ['workspace:*', 'workspace'],
    ]) {
      const spec = parseSpec('a', raw);
      expect(spec.kind, raw).toBe('unsupported');
      expect(spec.kind === 'unsupported' && spec.why, raw).toContain(why);
    }
  });

  it('splits name@spec, scoped names included', () => {
    expect(splitNameSpec('@s/n@^1')).toEqual({ name: '@s/n', spec: '^1' });
    expect(splitNameSpec('@s/n')).toEqual({ name: '@s/n', spec: '' });
    expect(splitNameSpec('n@latest')).toEqual({ name: 'n', spec: 'latest' });
  });
});

describe('savedRange', () => {
  it('saves ^version unless the range asked for is narrower; exact with -E', () => {
    expect(savedRange(parseSpec('a', 'latest'), '1.4.2', false, '^')).toBe('^1.4.2');
    expect(savedRange(parseSpec('a', '1.4.2'), '1.4.2', false, '^')).toBe('^1.4.2');
    expect(savedRange(parseSpec('a', '^1.0.0'), '1.4.2', false, '^')).toBe('^1.4.2');
    expect(savedRange(parseSpec('a', '~1.4.0'), '1.4.2', false, '^')).toBe('~1.4.0');
    expect(savedRange(parseSpec('a', '>=1.2 <1.5'), '1.4.2', false, '^')).toBe('>=1.2 <1.5');
    expect(savedRange(parseSpec('a', 'latest'), '1.4.2', true, '^')).toBe('1.4.2');
    expect(savedRange(parseSpec('a', 'latest'), '1.4.2', false, '~')).toBe('~1.4.2');
  });
});

describe('command line and .npmrc', () => {
  it('parses flags anywhere before --, short flags, values and negations', () => {
    const a = parseArgs([
      'i',
      '-DE',
      'left-pad',
      '--registry',
      'http://r/',
      '--no-save',
      '--omit=dev',
      '--',
      '--x',
    ]);
    expect(a.positionals).toEqual(['i', 'left-pad']);
    expect(a.passthrough).toEqual(['--x']);
    expect(Object.fromEntries(a.flags)).toEqual({
      'save-dev': true,
      'save-exact': true,
      registry: 'http://r/',
      save: false,
      omit: ['dev'],
    });
    const npx = parseArgs(['-y', 'tool', '--flag', '-x'], true);
    expect(npx.positionals).toEqual(['tool', '--flag', '-x']);
    expect(npx.flags.get('yes')).toBe(true);
  });

  it('reads .npmrc lines, comments, quotes and environment variables', () => {
    const rc = parseNpmrc(`; c\n# c\nregistry = "http://r/"\n@s:registry=\${R}\n//r/:_authToken=\${T}\n`, {
      R: 'http://s/',
    });
    expect(Object.fromEntries(rc)).toEqual({
      registry: 'http://r/',
      '@s:registry': 'http://s/',
      '//r/:_authToken': '',
    });
  });
});
