import { describe, expect, it } from 'vitest';
import {
  fileRuleMatches,
  foldLookalikes,
  normalizeAbsolute,
  resolvePath,
  safetyPathReason,
} from './paths.ts';

const ROOT = '/home/user/project';
const opts = { root: ROOT, home: ROOT, ignoreCase: false };
const m = (rule: string, path: string, extra: Partial<typeof opts & { directory: boolean }> = {}) =>
  fileRuleMatches(rule, resolvePath(ROOT, path, ROOT), { ...opts, ...extra });

describe('paths', () => {
  it('normalizes and resolves like a shell', () => {
    expect(normalizeAbsolute('/a/./b//c/../d/')).toBe('/a/b/d');
    expect(normalizeAbsolute('/../..')).toBe('/');
    expect(resolvePath('/w/src', '../x', '/w')).toBe('/w/x');
    expect(resolvePath('/w/src', '~/x', '/w')).toBe('/w/x');
    expect(resolvePath('/w/src', '/etc/passwd', '/w')).toBe('/etc/passwd');
  });
});

describe('file rules (gitignore semantics)', () => {
  it('a name matches at any depth; a slash anchors to the workspace root', () => {
    expect(m('.env', '.env')).toBe(true);
    expect(m('.env', 'config/.env')).toBe(true);
    expect(m('.env', '.env.local')).toBe(false);
    expect(m('/src/*.ts', 'src/a.ts')).toBe(true);
    expect(m('/src/*.ts', 'src/lib/a.ts')).toBe(false);
    expect(m('src/**/*.ts', 'src/lib/a.ts')).toBe(true);
    expect(m('./src/a.ts', 'src/a.ts')).toBe(true);
    expect(m('*.key', 'deep/down/id.key')).toBe(true);
  });

  it('a directory pattern covers everything inside it', () => {
    expect(m('secrets/', 'secrets/a/b.txt')).toBe(true);
    expect(m('secrets/**', 'secrets/a.txt')).toBe(true);
    expect(m('secrets/**', 'public/secrets.txt')).toBe(false);
  });

  it('// is absolute and ~/ is home; a rule never matches outside its base', () => {
    expect(fileRuleMatches('//etc/**', '/etc/passwd', opts)).toBe(true);
    expect(fileRuleMatches('.env', '/etc/.env', opts)).toBe(false);
    expect(fileRuleMatches('~/notes.md', `${ROOT}/notes.md`, opts)).toBe(true);
  });

  it('deny and ask rules match case-insensitively; allow rules exactly', () => {
    expect(m('.env', '.ENV', { ignoreCase: true })).toBe(true);
    expect(m('.env', '.ENV')).toBe(false);
  });

  it('a searched directory matches a rule about what is inside it', () => {
    expect(m('secrets/**', 'secrets', { directory: true })).toBe(true);
    expect(m('secrets/**', 'secrets')).toBe(false);
    expect(m('*.key', 'secrets', { directory: true })).toBe(false);
  });
});

describe('safety paths', () => {
  it.each([
    [`${ROOT}/.git/config`, '.git/'],
    [`${ROOT}/sub/.git/hooks/pre-commit`, '.git/'],
    [`${ROOT}/.GIT/HEAD`, '.git/'],
    [`${ROOT}/.tabcode/settings.json`, '.tabcode/'],
    [`${ROOT}/.bashrc`, 'start-up'],
    [`${ROOT}/.profile`, 'start-up'],
    [`${ROOT}/.zshrc`, 'start-up'],
    [`${ROOT}/.ｚshrc`, 'start-up'],
    ['/home/user/.bash_profile', 'start-up'],
  ])('%s is protected', (path, why) => {
    expect(safetyPathReason(path)).toContain(why);
  });

  it('ordinary files are not', () => {
    expect(safetyPathReason(`${ROOT}/src/git.ts`)).toBeNull();
    expect(safetyPathReason(`${ROOT}/.gitignore`)).toBeNull();
    expect(safetyPathReason(`${ROOT}/bashrc.md`)).toBeNull();
  });

  it('look-alike letters fold to the Latin ones they imitate', () => {
    expect(foldLookalikes('rм')).toBe('rm');
    expect(foldLookalikes('сurl')).toBe('curl');
    expect(foldLookalikes('r\u200bm')).toBe('rm');
    expect(foldLookalikes('ＲＭ')).toBe('rm');
  });
});
