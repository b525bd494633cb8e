import { beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../read/read.ts';
import { NotebookEditTool } from './notebook-edit.ts';

const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Analysis\n', 'Some words.'] },
    {
      cell_type: 'code',
      id: 'load',
      metadata: {},
      execution_count: 1,
      source: ['x = 1 + 1\n', 'print(x)'],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }],
    },
    {
      cell_type: 'code',
      id: 'boom',
      metadata: {},
      execution_count: 2,
      source: '1/0',
      outputs: [
        {
          output_type: 'error',
          ename: 'ZeroDivisionError',
          evalue: 'division by zero',
          traceback: ['\u001b[31mZeroDivisionError\u001b[0m: division by zero'],
        },
      ],
    },
  ],
};

let sandbox: Sandbox;
let ctx: ToolUseContext;
let path: string;
beforeEach(async () => {
  sandbox = await createJustBashSandbox({
    files: { 'nb.ipynb': JSON.stringify(NOTEBOOK), 'broken.ipynb': '{ "cells": [', 'notes.txt': 'x' },
  });
  ctx = createToolUseContext({ sandbox });
  path = `${sandbox.root}/nb.ipynb`;
});

async function read(p = path) {
  const { data } = await ReadTool.call({ file_path: p }, ctx);
  return ReadTool.mapToolResultToToolResultBlockParam(data, 'toolu_r').content as string;
}

describe('Read of a notebook', () => {
  it('shows cells with ids, types, sources and outputs (ANSI codes gone)', async () => {
    const text = await read();
    expect(text).toContain('<cell id="intro" type="markdown">\n# Analysis\nSome words.\n</cell>');
    expect(text).toContain(
      '<cell id="load" type="code" language="python">\nx = 1 + 1\nprint(x)\n<outputs>\n2\n\n</outputs>',
    );
    expect(text).toContain('ZeroDivisionError: division by zero');
    expect(text).not.toContain('\u001b');
  });

  it('reads a notebook that is not JSON as plain text', async () => {
    expect(await read(`${sandbox.root}/broken.ipynb`)).toContain('1\t{ "cells": [');
  });
});

describe('NotebookEdit', () => {
  it('replaces a cell (dropping its old outputs), inserts after a cell, deletes by cell-N', async () => {
    await read();
    const replaced = await NotebookEditTool.call(
      { notebook_path: path, cell_id: 'load', new_source: 'y = 3\nprint(y)' },
      ctx,
    );
    expect(replaced.data).toMatchObject({
      editMode: 'replace',
      cellId: 'load',
      oldSource: 'x = 1 + 1\nprint(x)',
    });
    let nb = JSON.parse(await sandbox.readFile(path));
    expect(nb.cells[1]).toMatchObject({
      source: ['y = 3\n', 'print(y)'],
      outputs: [],
      execution_count: null,
    });

    const inserted = await NotebookEditTool.call(
      {
        notebook_path: path,
        cell_id: 'intro',
        new_source: '## Setup',
        cell_type: 'markdown',
        edit_mode: 'insert',
      },
      ctx,
    );
    nb = JSON.parse(await sandbox.readFile(path));
    expect(nb.cells.map((c: { cell_type: string }) => c.cell_type)).toEqual([
      'markdown',
      'markdown',
      'code',
      'code',
    ]);
    expect(nb.cells[1].id).toBe(inserted.data.cellId);
    expect(NotebookEditTool.mapToolResultToToolResultBlockParam(inserted.data, 't').content).toMatch(
      /Inserted markdown cell/,
    );

    await NotebookEditTool.call(
      { notebook_path: path, cell_id: 'cell-3', new_source: '', edit_mode: 'delete' },
      ctx,
    );
    nb = JSON.parse(await sandbox.readFile(path));
    expect(nb.cells.map((c: { id: string }) => c.id)).toEqual(['intro', inserted.data.cellId, 'load']);
    expect(NotebookEditTool.isDestructive({ notebook_path: path, new_source: '', edit_mode: 'delete' })).toBe(
      true,
    );
  });

  it('refuses an unread notebook, one changed since read, one that is not JSON, a missing cell, insert without type', async () => {
    const v = (input: Parameters<typeof NotebookEditTool.call>[0]) =>
      NotebookEditTool.validateInput?.(input, ctx);
    expect(await v({ notebook_path: path, cell_id: 'load', new_source: 'x' })).toMatch(
      /has not been read yet/,
    );
    await read();
    expect(await v({ notebook_path: path, cell_id: 'nope', new_source: 'x' })).toMatch(
      /No cell with id nope.*intro, load, boom/,
    );
    expect(await v({ notebook_path: path, new_source: 'x', edit_mode: 'insert' })).toMatch(/needs cell_type/);
    expect(await v({ notebook_path: `${sandbox.root}/notes.txt`, new_source: 'x' })).toMatch(
      /not a Jupyter notebook/,
    );
    await read(`${sandbox.root}/broken.ipynb`);
    expect(
      await v({ notebook_path: `${sandbox.root}/broken.ipynb`, cell_id: 'cell-0', new_source: 'x' }),
    ).toMatch(/is not a valid notebook: it is not JSON/);
    await sandbox.writeFile(path, JSON.stringify({ ...NOTEBOOK, cells: [] }));
    expect(await v({ notebook_path: path, cell_id: 'load', new_source: 'x' })).toMatch(/modified since read/);
    await expect(
      NotebookEditTool.call({ notebook_path: path, cell_id: 'load', new_source: 'x' }, ctx),
    ).rejects.toBeInstanceOf(ToolInputError);
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(NotebookEditTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/notebook-edit.schema.json',
    );
  });
});
