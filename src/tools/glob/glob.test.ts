import { beforeEach, describe, expect, it } from 'vitest';
import { GLOB_MAX_RESULTS } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { GLOB_TRUNCATED_NOTE, type GlobInput, GlobTool } from './glob.ts';

let sandbox: Sandbox;
let ctx: ToolUseContext;
let root: string;

const FILES = {
  'package.json': '{}',
  'index.js': 'x',
  '.env': 'A=1',
  'src/a.ts': 'a',
  'src/b.ts': 'b',
  'src/util/c.ts': 'c',
  'src/util/d.tsx': 'd',
  'docs/guide.md': '# guide',
  'node_modules/lib/index.ts': 'dep',
};

beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: FILES });
  root = sandbox.root;
  ctx = createToolUseContext({ sandbox });
});

async function glob(input: GlobInput, c: ToolUseContext = ctx) {
  const { data } = await GlobTool.call(input, c);
  return { data, text: GlobTool.mapToolResultToToolResultBlockParam(data, 'toolu_1').content as string };
}

const sorted = (paths: string[]) => [...paths].sort();

describe('GlobTool', () => {
  it('matches recursively and returns absolute paths', async () => {
    const { data } = await glob({ pattern: '**/*.ts' });
    expect(sorted(data.filenames)).toEqual([`${root}/src/a.ts`, `${root}/src/b.ts`, `${root}/src/util/c.ts`]);
    expect(data.numFiles).toBe(3);
    expect(data.truncated).toBe(false);
  });

  it('matches relative to the search directory', async () => {
    expect(sorted((await glob({ pattern: 'src/*.ts' })).data.filenames)).toEqual([
      `${root}/src/a.ts`,
      `${root}/src/b.ts`,
    ]);
    expect(sorted((await glob({ pattern: '*.{js,json}' })).data.filenames)).toEqual([
      `${root}/index.js`,
      `${root}/package.json`,
    ]);
    expect(sorted((await glob({ pattern: '*.ts*', path: 'src/util' })).data.filenames)).toEqual([
      `${root}/src/util/c.ts`,
      `${root}/src/util/d.tsx`,
    ]);
    expect((await glob({ pattern: './docs/*.md' })).data.filenames).toEqual([`${root}/docs/guide.md`]);
  });

  it('searches from the agent cwd by default', async () => {
    const inSrc = createToolUseContext({ sandbox, options: { cwd: `${root}/src` } });
    expect(sorted((await glob({ pattern: '*.ts' }, inSrc)).data.filenames)).toEqual([
      `${root}/src/a.ts`,
      `${root}/src/b.ts`,
    ]);
  });

  it('includes dotfiles', async () => {
    expect((await glob({ pattern: '.env*' })).data.filenames).toEqual([`${root}/.env`]);
    expect((await glob({ pattern: '*' })).data.filenames).toContain(`${root}/.env`);
  });

  it('skips node_modules unless the pattern names it', async () => {
    expect((await glob({ pattern: '**/index.ts' })).data.filenames).toEqual([]);
    expect((await glob({ pattern: 'node_modules/**/*.ts' })).data.filenames).toEqual([
      `${root}/node_modules/lib/index.ts`,
    ]);
  });

  it('accepts an absolute pattern', async () => {
    expect(sorted((await glob({ pattern: `${root}/src/util/*` })).data.filenames)).toEqual([
      `${root}/src/util/c.ts`,
      `${root}/src/util/d.tsx`,
    ]);
    expect((await glob({ pattern: `${root}/docs/guide.md` })).data.filenames).toEqual([
      `${root}/docs/guide.md`,
    ]);
    expect((await glob({ pattern: `${root}/missing/**/*.ts` })).text).toBe('No files found');
  });

  it('sorts by modification time, newest first, ties by path', async () => {
    await sandbox.exec('touch -d "2021-01-01 00:00:00" src/a.ts && touch -d "2022-01-01 00:00:00" src/b.ts');
    expect((await glob({ pattern: 'src/*.ts' })).data.filenames).toEqual([
      `${root}/src/b.ts`,
      `${root}/src/a.ts`,
    ]);
    await sandbox.exec('touch -d "2023-01-01 00:00:00" src/a.ts');
    expect((await glob({ pattern: 'src/*.ts' })).data.filenames).toEqual([
      `${root}/src/a.ts`,
      `${root}/src/b.ts`,
    ]);
    await sandbox.exec('touch -d "2020-01-01 00:00:00" src/util/d.tsx src/util/c.ts');
    expect((await glob({ pattern: 'src/util/*' })).data.filenames).toEqual([
      `${root}/src/util/c.ts`,
      `${root}/src/util/d.tsx`,
    ]);
  });

  it('caps results and says they are truncated', async () => {
    for (let i = 0; i < GLOB_MAX_RESULTS + 5; i++) await sandbox.writeFile(`many/f${i}.txt`, '');
    const { data, text } = await glob({ pattern: 'many/*.txt' });
    expect(data.filenames).toHaveLength(GLOB_MAX_RESULTS);
    expect(data.truncated).toBe(true);
    expect(text.endsWith(GLOB_TRUNCATED_NOTE)).toBe(true);
    expect(text.split('\n')).toHaveLength(GLOB_MAX_RESULTS + 1);
  });

  it('says when nothing matches', async () => {
    const { data, text } = await glob({ pattern: '**/*.py' });
    expect(data.numFiles).toBe(0);
    expect(text).toBe('No files found');
  });

  it('refuses a path outside the workspace, a missing directory, a file, or an empty pattern', async () => {
    expect(await GlobTool.validateInput?.({ pattern: '*', path: '/etc' }, ctx)).toMatch(
      /outside the workspace/,
    );
    expect(await GlobTool.validateInput?.({ pattern: '/etc/*' }, ctx)).toMatch(/outside the workspace/);
    expect(await GlobTool.validateInput?.({ pattern: '*', path: 'nope' }, ctx)).toMatch(
      /Directory does not exist: nope/,
    );
    expect(await GlobTool.validateInput?.({ pattern: '*', path: 'package.json' }, ctx)).toMatch(
      /not a directory/,
    );
    expect(await GlobTool.validateInput?.({ pattern: '  ' }, ctx)).toMatch(/pattern is empty/);
    expect(await GlobTool.validateInput?.({ pattern: '*.ts', path: 'src' }, ctx)).toBeNull();
    await expect(GlobTool.call({ pattern: '*', path: '../..' }, ctx)).rejects.toThrow(ToolInputError);
  });

  it('is read-only, concurrency-safe and allowed', async () => {
    expect(GlobTool.isReadOnly()).toBe(true);
    expect(GlobTool.isConcurrencySafe()).toBe(true);
    const decision = await GlobTool.checkPermissions({ pattern: '*' }, { mode: 'default', root, cwd: root });
    expect(decision.behavior).toBe('allow');
  });

  it('renders plain data and a prompt with limits filled in', async () => {
    expect(GlobTool.renderToolUseMessage?.({ pattern: '**/*.ts', path: 'src' })).toEqual({
      title: 'Glob',
      subtitle: '**/*.ts in src',
      body: { kind: 'none' },
    });
    const { data } = await glob({ pattern: 'docs/*' });
    expect(GlobTool.renderToolResultMessage?.(data, { pattern: 'docs/*' })).toEqual({
      kind: 'files',
      paths: [`${root}/docs/guide.md`],
      truncated: false,
    });
    expect(GlobTool.toAutoClassifierInput?.({ pattern: '*.md' })).toBe('*.md');
    const prompt = GlobTool.prompt?.() ?? '';
    expect(prompt).not.toMatch(/\{\{/);
    expect(prompt).toContain(String(GLOB_MAX_RESULTS));
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(GlobTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/glob.schema.json',
    );
  });
});
