/** anythingAt (the WebContainer backend's existsAnywhere) over stub listings and a stub VM probe. */
import { describe, expect, it } from 'vitest';
import { SandboxError } from './sandbox.ts';
import { anythingAt, type LinkLookup } from './webcontainer-paths.ts';

const ROOT = '/home/project';
/** The workspace as its listings show it: a file, a folder, a link (its target is the VM's business). */
const TYPES: Record<string, 'file' | 'directory' | 'symlink'> = {
  [`${ROOT}/a.txt`]: 'file',
  [`${ROOT}/node_modules`]: 'directory',
  [`${ROOT}/node_modules/.bin`]: 'directory',
  [`${ROOT}/node_modules/.bin/tsc`]: 'symlink',
  [`${ROOT}/vendor`]: 'symlink',
};

function setup(probeAnswer: boolean | null = false) {
  const probed: string[] = [];
  const links: LinkLookup = {
    root: ROOT,
    async typeOf(abs) {
      const parent = abs.slice(0, abs.lastIndexOf('/'));
      if (TYPES[parent] === 'file') throw new SandboxError('ENOTDIR', `${parent} is not a directory`);
      if (abs.endsWith('/broken')) throw new SandboxError('EIO', 'the listing failed');
      return TYPES[abs];
    },
    linkTarget: async () => '',
  };
  const probe = async (abs: string) => {
    probed.push(abs);
    return probeAnswer;
  };
  return { at: (path: string) => anythingAt(links, path, probe), probed };
}

describe('anythingAt', () => {
  it('answers from the listings in the workspace: a link itself counts, nothing under a file', async () => {
    const { at, probed } = setup();
    expect(await at(ROOT)).toBe(true);
    expect(await at(`${ROOT}/a.txt`)).toBe(true);
    expect(await at(`${ROOT}/node_modules/.bin/tsc`)).toBe(true);
    expect(await at(`${ROOT}/node_modules/.bin/ls`)).toBe(false);
    expect(await at(`${ROOT}/missing/deeper/ls`)).toBe(false);
    expect(await at(`${ROOT}/a.txt/ls`)).toBe(false);
    expect(await at(`${ROOT}/src/../node_modules/.bin/tsc`)).toBe(true);
    expect(probed).toEqual([]);
  });

  it('asks the VM outside the workspace, through a link on the way, and when a listing fails', async () => {
    const { at, probed } = setup(true);
    expect(await at('/home/node_modules/.bin/ls')).toBe(true);
    expect(await at(`${ROOT}/vendor/bin/ls`)).toBe(true);
    expect(await at(`${ROOT}/broken/x`)).toBe(true);
    expect(await at(`${ROOT}/../node_modules/.bin/ls`)).toBe(true);
    expect(probed).toEqual([
      '/home/node_modules/.bin/ls',
      `${ROOT}/vendor/bin/ls`,
      `${ROOT}/broken/x`,
      '/home/node_modules/.bin/ls',
    ]);
  });

  it('a relative path or one with a NUL is nothing; a VM that cannot tell is an error, not "nothing"', async () => {
    const { at, probed } = setup(null);
    expect(await at('node_modules/.bin/ls')).toBe(false);
    expect(await at(`${ROOT}/a\0b`)).toBe(false);
    expect(probed).toEqual([]);
    await expect(at('/usr/local/bin/ls')).rejects.toMatchObject({ code: 'EIO' });
  });
});
