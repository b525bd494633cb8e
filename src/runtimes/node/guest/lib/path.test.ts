// node:path in the guest against Node's own, over generated paths (edge cases included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { rng } from '../testing/value-gen.ts';

const GUEST_CWD = '/home/user/project';
let h: GuestHarness;
let realCwd: () => string;
beforeAll(async () => {
  h = await GuestHarness.create();
  // Node's path.resolve reads process.cwd(); make it the guest's so relative inputs compare.
  realCwd = process.cwd;
  process.cwd = () => GUEST_CWD;
});
afterAll(() => {
  process.cwd = realCwd;
  h.dispose();
});

const PIECES = [
  '',
  '.',
  '..',
  'a',
  'b',
  'b.js',
  '.x',
  'c.d.e',
  '...',
  'a.',
  '.a.',
  '..a',
  'é',
  'x y',
  'node_modules',
];

function generatePaths(seed: number, count: number): string[] {
  const next = rng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const paths = new Set<string>([
    '',
    '/',
    '//',
    '///',
    '.',
    '..',
    './',
    '../',
    '/a',
    '//a',
    'a//b',
    '/a/b/',
    'a/b//',
  ]);
  while (paths.size < count) {
    const n = 1 + Math.floor(next() * 5);
    let p = next() < 0.4 ? '/' : '';
    for (let i = 0; i < n; i++) p += (i > 0 ? pick(['/', '/', '/', '//']) : '') + pick(PIECES);
    if (next() < 0.2) p += '/';
    paths.add(p);
  }
  return [...paths];
}

const PATHS = generatePaths(7, 400);

describe('path matches Node', () => {
  for (const fn of [
    'normalize',
    'dirname',
    'basename',
    'extname',
    'isAbsolute',
    'parse',
    'resolve',
    'toNamespacedPath',
  ]) {
    it(`path.${fn} over ${PATHS.length} paths`, () => {
      expectSameAsNode(h, `(p, require) => require('path').${fn}(p)`, PATHS);
    });
  }

  it('basename with a suffix', () => {
    const suffixes = ['.js', 'js', '.e', 'b.js', '', '/', 'a', '...', '.x'];
    const inputs = PATHS.flatMap((p, i) => [
      [p, suffixes[i % suffixes.length]],
      [p, '.js'],
    ]);
    expectSameAsNode(h, `([p, s], require) => require('path').basename(p, s)`, inputs);
  });

  it('join, resolve and relative over path pairs and triples', () => {
    const next = rng(11);
    const pick = () => PATHS[Math.floor(next() * PATHS.length)];
    const pairs = Array.from({ length: 600 }, () => [pick(), pick()]);
    const triples = Array.from({ length: 200 }, () => [pick(), pick(), pick()]);
    expectSameAsNode(h, `(args, require) => require('path').join(...args)`, [...pairs, ...triples, []]);
    expectSameAsNode(h, `(args, require) => require('path').resolve(...args)`, [...pairs, ...triples, []]);
    expectSameAsNode(h, `([a, b], require) => require('path').relative(a, b)`, pairs);
  });

  it('format round-trips parse, and formats partial objects', () => {
    expectSameAsNode(h, `(p, require) => require('path').format(require('path').parse(p))`, PATHS);
    const objects = [
      { root: '/', dir: '/home', base: 'f.txt' },
      { root: '/', base: 'f.txt' },
      { dir: 'a', name: 'f', ext: 'txt' },
      { name: 'f', ext: '.txt' },
      { root: '/', name: 'x' },
      { dir: '/a/', base: 'b' },
      {},
    ];
    expectSameAsNode(h, `(o, require) => require('path').format(o)`, objects);
  });

  it('throws Node errors for bad arguments', () => {
    const calls = [
      'p.join("a", 1)',
      'p.resolve("a", null)',
      'p.normalize(undefined)',
      'p.basename("a", 1)',
      'p.relative(1, "a")',
      'p.relative("a", {})',
      'p.format(null)',
      'p.format("x")',
      'p.parse(1)',
      'p.extname([])',
      'p.dirname(Symbol("s"))',
      'p.isAbsolute(5n)',
    ];
    expectSameAsNode(
      h,
      `(src, require) => { const p = require('path'); return (0, eval)('(p) => ' + src)(p); }`,
      calls,
    );
  });

  it('exposes sep, delimiter, posix and win32 as Node does', () => {
    expectSameAsNode(
      h,
      `(key, require) => { const p = require('path'); return [p.sep, p.delimiter, p.posix === p, p.win32.sep, p.win32.delimiter, Object.keys(p).sort().filter((k) => k !== 'matchesGlob')]; }`,
      [0],
    );
  });
});

describe('path in the guest', () => {
  it('resolve starts from process.cwd()', () => {
    expect(h.eval(`require('path').resolve('src', '../lib')`)).toBe('/home/user/project/lib');
    expect(h.eval(`require('node:path').resolve()`)).toBe('/home/user/project');
  });

  it('win32 handles drive letters and both separators for the common calls', () => {
    const out = h.eval(`{ const w = require('path').win32;
      JSON.stringify([w.join('C:\\\\a', 'b/c'), w.basename('C:\\\\x\\\\y.txt'), w.extname('a\\\\b.md'),
        w.isAbsolute('C:\\\\x'), w.isAbsolute('x'), w.normalize('C:\\\\a\\\\..\\\\b'), w.dirname('C:\\\\a\\\\b')]) }`);
    expect(JSON.parse(out as string)).toEqual(['C:\\a\\b\\c', 'y.txt', '.md', true, false, 'C:\\b', 'C:\\a']);
  });
});
