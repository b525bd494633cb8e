import { beforeEach, describe, expect, it } from 'vitest';
import { GREP_DEFAULT_HEAD_LIMIT } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { GREP_MAX_LINE_CHARS, type GrepInput, GrepTool } from './grep.ts';

let sandbox: Sandbox;
let ctx: ToolUseContext;
let root: string;

const FILES: Record<string, string | Uint8Array> = {
  'src/app.ts': [
    "import { helper } from './util';",
    'export function main() {',
    '  const value = helper(1);',
    "  console.log('TODO: remove');",
    '  return value;',
    '}',
    '',
  ].join('\n'),
  'src/util.ts': 'export function helper(x: number) {\n  return x * 2; // TODO optimise\n}\n',
  'src/view.tsx': 'export const View = () => <div>Hello</div>;\n',
  'lib/legacy.js': '// todo: old\nvar a = 1;\n',
  'docs/readme.md': '# Readme\nTODO write docs\n',
  'notes.py': 'x = 1  # TODO\n',
  'config.json': '{"todo": true}\n',
  'assets/logo.bin': new Uint8Array([
    0x89,
    0x50,
    0x00,
    0x01,
    ...new TextEncoder().encode('TODO inside binary\n'),
  ]),
  'node_modules/dep/index.js': '// TODO in a dependency\n',
};

beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: FILES });
  root = sandbox.root;
  ctx = createToolUseContext({ sandbox });
  // Distinct modification times: notes.py newest, then readme, util, app.
  await sandbox.exec(
    'touch -d "2020-01-01 00:00:00" src/app.ts && touch -d "2021-01-01 00:00:00" src/util.ts && ' +
      'touch -d "2022-01-01 00:00:00" docs/readme.md && touch -d "2023-01-01 00:00:00" notes.py',
  );
});

async function grep(input: GrepInput, c: ToolUseContext = ctx) {
  const { data } = await GrepTool.call(input, c);
  return { data, text: GrepTool.mapToolResultToToolResultBlockParam(data, 'toolu_1').content as string };
}

describe('GrepTool files_with_matches (default)', () => {
  it('lists matching files newest first as absolute paths, skipping binary files and node_modules', async () => {
    const { data, text } = await grep({ pattern: 'TODO' });
    expect(data.mode).toBe('files_with_matches');
    expect(data.filenames).toEqual([
      `${root}/notes.py`,
      `${root}/docs/readme.md`,
      `${root}/src/util.ts`,
      `${root}/src/app.ts`,
    ]);
    expect(text).toBe(`Found 4 files\n${data.filenames.join('\n')}`);
  });

  it('ignores case with -i and with a leading (?i)', async () => {
    const expected = [`${root}/config.json`, `${root}/lib/legacy.js`];
    const { data } = await grep({ pattern: 'todo', '-i': true });
    expect(data.numFiles).toBe(6);
    expect(data.filenames).toEqual(expect.arrayContaining(expected));
    expect((await grep({ pattern: '(?i)todo' })).data.numFiles).toBe(6);
    expect((await grep({ pattern: 'todo' })).data.filenames.sort()).toEqual(expected);
  });

  it('says when nothing matches', async () => {
    expect((await grep({ pattern: 'no-such-text' })).text).toBe('No files found');
    expect((await grep({ pattern: 'no-such-text', output_mode: 'content' })).text).toBe('No matches found');
  });

  it('pages with head_limit and offset', async () => {
    const first = await grep({ pattern: 'TODO', head_limit: 1 });
    expect(first.text).toBe(`Found 1 file limit: 1\n${root}/notes.py`);
    const second = await grep({ pattern: 'TODO', head_limit: 2, offset: 1 });
    expect(second.data.filenames).toEqual([`${root}/docs/readme.md`, `${root}/src/util.ts`]);
    expect(second.text.split('\n')[0]).toBe('Found 2 files limit: 2, offset: 1');
    const all = await grep({ pattern: 'TODO', head_limit: 0 });
    expect(all.data.numFiles).toBe(4);
    expect(all.data.appliedLimit).toBeUndefined();
  });
});

describe('GrepTool content mode', () => {
  it('prints path:line:text with paths relative to the cwd', async () => {
    const { data, text } = await grep({ pattern: 'helper\\(', output_mode: 'content' });
    expect(text).toBe(
      'src/app.ts:3:  const value = helper(1);\nsrc/util.ts:1:export function helper(x: number) {',
    );
    expect(data.numLines).toBe(2);
    expect(data.numFiles).toBe(2);
  });

  it('omits line numbers with -n false', async () => {
    const { text } = await grep({ pattern: 'TODO', output_mode: 'content', '-n': false, path: 'docs' });
    expect(text).toBe('docs/readme.md:TODO write docs');
  });

  it('prints no -- separators without context options (as ripgrep)', async () => {
    const { renderFileContent } = await import('./search.ts');
    const lines = ['a match', 'x', 'y', 'another match'];
    const opts = { before: 0, after: 0, lineNumbers: true, maxLineChars: 500 };
    expect([...renderFileContent('f.txt', lines, [0, 3], opts)]).toEqual([
      'f.txt:1:a match',
      'f.txt:4:another match',
    ]);
    expect([...renderFileContent('f.txt', lines, [0, 3], { ...opts, after: 1 })]).toEqual([
      'f.txt:1:a match',
      'f.txt-2-x',
      '--',
      'f.txt:4:another match',
    ]);
  });

  it('shows context lines with - and separates groups with --', async () => {
    const { text } = await grep({ pattern: 'TODO', output_mode: 'content', '-C': 1, glob: '*.ts' });
    expect(text.split('\n')).toEqual([
      'src/app.ts-3-  const value = helper(1);',
      "src/app.ts:4:  console.log('TODO: remove');",
      'src/app.ts-5-  return value;',
      '--',
      'src/util.ts-1-export function helper(x: number) {',
      'src/util.ts:2:  return x * 2; // TODO optimise',
      'src/util.ts-3-}',
    ]);
    const after = await grep({ pattern: 'export', output_mode: 'content', '-A': 1, path: 'src/app.ts' });
    expect(after.text.split('\n')).toEqual([
      'src/app.ts:2:export function main() {',
      'src/app.ts-3-  const value = helper(1);',
    ]);
    const beforeOnly = await grep({
      pattern: 'return value',
      output_mode: 'content',
      '-B': 2,
      path: 'src/app.ts',
    });
    expect(beforeOnly.text.split('\n')).toEqual([
      'src/app.ts-3-  const value = helper(1);',
      "src/app.ts-4-  console.log('TODO: remove');",
      'src/app.ts:5:  return value;',
    ]);
  });

  it('takes context as Claude Code names it (context, with -C as its alias), winning over -A/-B', async () => {
    const viaContext = await grep({ pattern: 'TODO', output_mode: 'content', context: 1, glob: '*.ts' });
    const viaC = await grep({ pattern: 'TODO', output_mode: 'content', '-C': 1, glob: '*.ts' });
    expect(viaContext.text).toBe(viaC.text);
    expect(viaContext.text).toContain('src/app.ts-3-  const value = helper(1);');
    const wins = await grep({
      pattern: 'return value',
      output_mode: 'content',
      context: 0,
      '-B': 2,
      path: 'src/app.ts',
    });
    expect(wins.text).toBe('src/app.ts:5:  return value;');
    await expect(grep({ pattern: 'x', output_mode: 'content', context: -1 })).rejects.toThrow(
      /Invalid context: -1/,
    );
  });

  it('-o prints only the matched parts, one per line, several per line when they repeat', async () => {
    await sandbox.writeFile(`${root}/ids.txt`, 'id=12 and id=345\nnone here\nid=6\n');
    const { text } = await grep({ pattern: 'id=\\d+', output_mode: 'content', '-o': true, path: 'ids.txt' });
    expect(text.split('\n')).toEqual(['ids.txt:1:id=12', 'ids.txt:1:id=345', 'ids.txt:3:id=6']);
    const bare = await grep({
      pattern: '\\d+',
      output_mode: 'content',
      '-o': true,
      '-n': false,
      path: 'ids.txt',
      context: 2,
    });
    expect(bare.text.split('\n')).toEqual(['ids.txt:12', 'ids.txt:345', 'ids.txt:6']);
    const across = await grep({
      pattern: 'helper\\(x[\\s\\S]*?\\*',
      output_mode: 'content',
      '-o': true,
      multiline: true,
      path: 'src/util.ts',
    });
    expect(across.text).toBe('src/util.ts:1:helper(x: number) {\n  return x *');
    // Ignored outside content mode, as its description says.
    const files = await grep({ pattern: 'id=', '-o': true, path: 'ids.txt' });
    expect(files.text).toContain(`${root}/ids.txt`);
  });

  it('merges overlapping context into one group', async () => {
    const { text } = await grep({ pattern: 'value', output_mode: 'content', '-C': 1, path: 'src/app.ts' });
    expect(text.split('\n')).toEqual([
      'src/app.ts-2-export function main() {',
      'src/app.ts:3:  const value = helper(1);',
      "src/app.ts-4-  console.log('TODO: remove');",
      'src/app.ts:5:  return value;',
      'src/app.ts-6-}',
    ]);
  });

  it('limits output lines and reports the pagination', async () => {
    const { data, text } = await grep({
      pattern: '.',
      output_mode: 'content',
      path: 'src/app.ts',
      head_limit: 2,
      offset: 1,
    });
    expect(data.content).toBe(
      'src/app.ts:2:export function main() {\nsrc/app.ts:3:  const value = helper(1);',
    );
    expect(text.endsWith('[Showing results with pagination = limit: 2, offset: 1]')).toBe(true);
  });

  it('applies the default head limit', async () => {
    await sandbox.writeFile(
      'big.txt',
      `${Array.from({ length: GREP_DEFAULT_HEAD_LIMIT + 10 }, (_, i) => `line ${i}`).join('\n')}\n`,
    );
    const { data } = await grep({ pattern: 'line', output_mode: 'content', path: 'big.txt' });
    expect(data.numLines).toBe(GREP_DEFAULT_HEAD_LIMIT);
    expect(data.appliedLimit).toBe(GREP_DEFAULT_HEAD_LIMIT);
  });

  it('gives every one of 250,000 matching lines with head_limit 0 (and -o), and the exact cut with a limit', async () => {
    const n = 250_000;
    await sandbox.writeFile('huge.log', `${Array.from({ length: n }, (_, i) => `hit ${i}`).join('\n')}\n`);
    const all = await grep({ pattern: 'hit', output_mode: 'content', path: 'huge.log', head_limit: 0 });
    expect(all.data.numLines).toBe(n);
    expect(all.data.appliedLimit).toBeUndefined();
    expect(all.data.content?.split('\n').at(-1)).toBe(`huge.log:${n}:hit ${n - 1}`);
    const only = await grep({
      pattern: '\\d+',
      output_mode: 'content',
      path: 'huge.log',
      head_limit: 0,
      '-o': true,
    });
    expect(only.data.numLines).toBe(n);
    expect(only.data.content?.split('\n')[7]).toBe('huge.log:8:7');
    const cut = await grep({
      pattern: 'hit',
      output_mode: 'content',
      path: 'huge.log',
      head_limit: 3,
      offset: n - 4,
    });
    expect(cut.data.content).toBe(
      [
        `huge.log:${n - 3}:hit ${n - 4}`,
        `huge.log:${n - 2}:hit ${n - 3}`,
        `huge.log:${n - 1}:hit ${n - 2}`,
      ].join('\n'),
    );
    expect(cut.data.appliedLimit).toBe(3);
    const end = await grep({
      pattern: 'hit',
      output_mode: 'content',
      path: 'huge.log',
      head_limit: 3,
      offset: n - 3,
    });
    expect(end.data.numLines).toBe(3);
    expect(end.data.appliedLimit).toBeUndefined();
  });

  it('matches across lines in multiline mode', async () => {
    const input: GrepInput = { pattern: 'helper\\(1\\);.*console', output_mode: 'content', path: 'src' };
    expect((await grep(input)).text).toBe('No matches found');
    const { text } = await grep({ ...input, multiline: true });
    expect(text).toBe("src/app.ts:3:  const value = helper(1);\nsrc/app.ts:4:  console.log('TODO: remove');");
  });

  it('uses paths relative to the agent cwd', async () => {
    const inSrc = createToolUseContext({ sandbox, options: { cwd: `${root}/src` } });
    const { text } = await grep({ pattern: 'Hello', output_mode: 'content' }, inSrc);
    expect(text).toBe('view.tsx:1:export const View = () => <div>Hello</div>;');
  });

  it('cuts very long lines', async () => {
    await sandbox.writeFile('min.js', `var x="${'a'.repeat(2000)}";\n`);
    const { data } = await grep({ pattern: 'var x', output_mode: 'content', path: 'min.js' });
    expect(data.content?.length).toBeLessThan(GREP_MAX_LINE_CHARS + 80);
    expect(data.content).toMatch(/more characters\]$/);
  });
});

describe('GrepTool count mode', () => {
  it('prints path:N and a summary', async () => {
    const { data, text } = await grep({ pattern: 'e', output_mode: 'count', glob: '*.ts' });
    const counts = Object.fromEntries((data.content ?? '').split('\n').map((l) => l.split(':')));
    expect(counts).toEqual({ 'src/app.ts': '5', 'src/util.ts': '2' });
    expect(data.numMatches).toBe(7);
    expect(text.endsWith('Found 7 total occurrences across 2 files.')).toBe(true);
    const one = await grep({ pattern: 'Hello', output_mode: 'count' });
    expect(one.text).toBe('src/view.tsx:1\n\nFound 1 total occurrence across 1 file.');
  });
});

describe('GrepTool filters', () => {
  it('filters with glob patterns at any depth, braces, lists and exclusions', async () => {
    const names = async (glob: string) =>
      (await grep({ pattern: '.', glob, head_limit: 0 })).data.filenames.sort();
    expect(await names('*.ts')).toEqual([`${root}/src/app.ts`, `${root}/src/util.ts`]);
    expect(await names('**/*.{ts,tsx}')).toEqual([
      `${root}/src/app.ts`,
      `${root}/src/util.ts`,
      `${root}/src/view.tsx`,
    ]);
    expect(await names('*.py,*.md')).toEqual([`${root}/docs/readme.md`, `${root}/notes.py`]);
    expect(await names('src/* !*.tsx')).toEqual([`${root}/src/app.ts`, `${root}/src/util.ts`]);
  });

  it('filters by file type', async () => {
    expect((await grep({ pattern: 'TODO', type: 'py' })).data.filenames).toEqual([`${root}/notes.py`]);
    expect((await grep({ pattern: 'export', type: 'ts', head_limit: 0 })).data.filenames.sort()).toEqual([
      `${root}/src/app.ts`,
      `${root}/src/util.ts`,
      `${root}/src/view.tsx`,
    ]);
    expect((await grep({ pattern: 'todo', type: 'js' })).data.filenames).toEqual([`${root}/lib/legacy.js`]);
  });

  it('skips binary files even when they match', async () => {
    expect((await grep({ pattern: 'TODO', glob: '*.bin' })).text).toBe('No files found');
    expect((await grep({ pattern: 'TODO', path: 'assets/logo.bin' })).text).toBe('No files found');
  });

  it('searches node_modules only when asked for it', async () => {
    expect((await grep({ pattern: 'dependency' })).data.numFiles).toBe(0);
    expect((await grep({ pattern: 'dependency', path: 'node_modules/dep' })).data.filenames).toEqual([
      `${root}/node_modules/dep/index.js`,
    ]);
  });
});

describe('GrepTool errors', () => {
  it('explains an invalid regex', async () => {
    const message = await GrepTool.validateInput?.({ pattern: 'foo(' }, ctx);
    expect(message).toMatch(/Invalid regular expression "foo\(":/);
    await expect(GrepTool.call({ pattern: '[a-' }, ctx)).rejects.toThrow(ToolInputError);
  });

  it('treats lone braces literally, like legacy JavaScript regexes', async () => {
    await sandbox.writeFile('go/main.go', 'var x interface{}\n');
    expect((await grep({ pattern: 'interface{}' })).data.filenames).toEqual([`${root}/go/main.go`]);
  });

  it('refuses paths outside the workspace, missing paths, unknown types and bad numbers', async () => {
    expect(await GrepTool.validateInput?.({ pattern: 'x', path: '/etc' }, ctx)).toMatch(
      /outside the workspace/,
    );
    expect(await GrepTool.validateInput?.({ pattern: 'x', path: 'missing' }, ctx)).toMatch(
      /Path does not exist: missing/,
    );
    expect(await GrepTool.validateInput?.({ pattern: 'x', type: 'cobol' }, ctx)).toMatch(
      /Unknown file type "cobol"/,
    );
    expect(await GrepTool.validateInput?.({ pattern: 'x', head_limit: -1 }, ctx)).toMatch(
      /Invalid head_limit/,
    );
    expect(await GrepTool.validateInput?.({ pattern: 'x', '-C': 1.5 }, ctx)).toMatch(/Invalid -C/);
    expect(await GrepTool.validateInput?.({ pattern: 'x', path: 'src', type: 'ts' }, ctx)).toBeNull();
    await expect(GrepTool.call({ pattern: 'x', path: '../../etc' }, ctx)).rejects.toThrow(
      /outside the workspace/,
    );
  });
});

describe('GrepTool metadata', () => {
  it('is read-only, concurrency-safe and allowed', async () => {
    expect(GrepTool.isReadOnly()).toBe(true);
    expect(GrepTool.isConcurrencySafe()).toBe(true);
    expect(GrepTool.maxResultSizeChars).toBe(20_000);
    expect(
      (await GrepTool.checkPermissions({ pattern: 'x' }, { mode: 'default', root, cwd: root })).behavior,
    ).toBe('allow');
  });

  it('renders plain data and fills prompt placeholders', async () => {
    expect(GrepTool.renderToolUseMessage?.({ pattern: 'TODO', path: 'src', glob: '*.ts' })).toEqual({
      title: 'Grep',
      subtitle: '"TODO" in src (*.ts)',
      body: { kind: 'none' },
    });
    const files = await grep({ pattern: 'TODO', type: 'py' });
    expect(GrepTool.renderToolResultMessage?.(files.data, { pattern: 'TODO' })).toEqual({
      kind: 'files',
      paths: [`${root}/notes.py`],
      truncated: false,
    });
    const content = await grep({ pattern: 'TODO', type: 'py', output_mode: 'content' });
    expect(GrepTool.renderToolResultMessage?.(content.data, { pattern: 'TODO' })).toEqual({
      kind: 'text',
      text: 'notes.py:1:x = 1  # TODO',
    });
    const prompt = GrepTool.prompt?.() ?? '';
    expect(prompt).not.toMatch(/\{\{/);
    expect(prompt).toContain(String(GREP_DEFAULT_HEAD_LIMIT));
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(GrepTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/grep.schema.json',
    );
  });
});
