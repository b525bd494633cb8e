/**
 * Jupyter notebooks (.ipynb, nbformat 4): parsing with a message the model can act on, cell ids as
 * Claude Code gives them (the cell's own `id`, else `cell-N` by position), edits of one cell, and the
 * text Read shows (cells with their outputs). Pure functions.
 */

import { messageOf } from '../../core/errors.ts';
import { ToolInputError } from '../../core/tool.ts';

/** Most characters of one cell output Read shows; the rest is cut with a note. */
export const NOTEBOOK_MAX_OUTPUT_CHARS = 10_000;

export type CellType = 'code' | 'markdown' | 'raw';

export interface NotebookCell {
  cell_type: CellType;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface NotebookOutput {
  output_type: 'stream' | 'execute_result' | 'display_data' | 'error' | string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: {
    language_info?: { name?: string };
    kernelspec?: { language?: string };
    [key: string]: unknown;
  };
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/** Parses a notebook's text. Throws ToolInputError saying what is wrong. */
export function parseNotebook(text: string, path: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = messageOf(err);
    throw new ToolInputError(
      `${path} is not a valid notebook: it is not JSON (${why}). Read it to see what it holds; a .ipynb file must be nbformat 4 JSON.`,
    );
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as Notebook).cells)) {
    throw new ToolInputError(
      `${path} is not a valid notebook: it has no "cells" list (nbformat 4 expected).`,
    );
  }
  const nb = value as Notebook;
  nb.cells.forEach((cell, i) => {
    if (typeof cell !== 'object' || cell === null || typeof cell.cell_type !== 'string') {
      throw new ToolInputError(`${path} is not a valid notebook: cell ${i} has no cell_type.`);
    }
  });
  return nb;
}

/** The language of a notebook's code cells (default python). */
export function notebookLanguage(nb: Notebook): string {
  return nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language ?? 'python';
}

export function sourceText(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join('') : (source ?? '');
}

/** The id a model uses for the cell at `index`: its own id, else `cell-<index>`. */
export function cellIdOf(cell: NotebookCell, index: number): string {
  return typeof cell.id === 'string' && cell.id ? cell.id : `cell-${index}`;
}

/** The position of the cell `id` names (its id, or `cell-N`), or -1. */
export function findCell(nb: Notebook, id: string): number {
  const byId = nb.cells.findIndex((c) => c.id === id);
  if (byId >= 0) return byId;
  const m = /^cell-(\d+)$/.exec(id);
  if (m && Number(m[1]) < nb.cells.length) return Number(m[1]);
  return -1;
}

/** Source as nbformat stores it: lines, each but the last ending with a newline. */
function toSourceLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l)).filter((l) => l !== '');
}

/** A new cell id (nbformat 4.5: 1-64 of letters, digits, - and _). */
function newCellId(nb: Notebook): string {
  const taken = new Set(nb.cells.map((c) => c.id));
  for (;;) {
    const id = Math.random().toString(36).slice(2, 10);
    if (!taken.has(id)) return id;
  }
}

export interface CellEdit {
  mode: 'replace' | 'insert' | 'delete';
  /** The cell to change, or after which to insert (absent: insert at the top). */
  cellId?: string;
  source: string;
  cellType?: 'code' | 'markdown';
}

export interface CellEditResult {
  notebook: Notebook;
  cellId: string;
  cellType: CellType;
  oldSource?: string;
}

/** Applies one cell edit to a copy of `nb`. Throws ToolInputError with a message the model can act on. */
export function editCell(nb: Notebook, edit: CellEdit): CellEditResult {
  const cells = nb.cells.slice();
  const ids = () => nb.cells.map((c, i) => cellIdOf(c, i)).join(', ') || '(none)';
  const indexOf = (id: string) => {
    const at = findCell(nb, id);
    if (at < 0) throw new ToolInputError(`No cell with id ${id} in this notebook. Cell ids: ${ids()}.`);
    return at;
  };
  const withIds = nb.nbformat === 4 && (nb.nbformat_minor ?? 0) >= 5;
  if (edit.mode === 'insert') {
    if (!edit.cellType) throw new ToolInputError('Inserting a cell needs cell_type (code or markdown).');
    const at = edit.cellId === undefined ? 0 : indexOf(edit.cellId) + 1;
    const cell: NotebookCell = {
      cell_type: edit.cellType,
      ...(withIds ? { id: newCellId(nb) } : {}),
      metadata: {},
      source: toSourceLines(edit.source),
      ...(edit.cellType === 'code' ? { outputs: [], execution_count: null } : {}),
    };
    cells.splice(at, 0, cell);
    return { notebook: { ...nb, cells }, cellId: cellIdOf(cell, at), cellType: edit.cellType };
  }
  if (edit.cellId === undefined)
    throw new ToolInputError(
      `${edit.mode === 'delete' ? 'Deleting' : 'Replacing'} a cell needs cell_id. Cell ids: ${ids()}.`,
    );
  const at = indexOf(edit.cellId);
  const old = cells[at];
  const oldSource = sourceText(old.source);
  if (edit.mode === 'delete') {
    cells.splice(at, 1);
    return { notebook: { ...nb, cells }, cellId: edit.cellId, cellType: old.cell_type, oldSource };
  }
  const cellType = edit.cellType ?? old.cell_type;
  const cell: NotebookCell = { ...old, cell_type: cellType, source: toSourceLines(edit.source) };
  if (cellType === 'code') {
    // The old outputs belong to the old code.
    cell.outputs = [];
    cell.execution_count = null;
  } else {
    delete cell.outputs;
    delete cell.execution_count;
  }
  cells[at] = cell;
  return { notebook: { ...nb, cells }, cellId: cellIdOf(cell, at), cellType, oldSource };
}

/** A notebook as JSON text the way Jupyter writes it (one-space indent, trailing newline). */
export function serializeNotebook(nb: Notebook): string {
  return `${JSON.stringify(nb, null, 1)}\n`;
}

function cap(text: string): string {
  return text.length > NOTEBOOK_MAX_OUTPUT_CHARS
    ? `${text.slice(0, NOTEBOOK_MAX_OUTPUT_CHARS)}\n… (${text.length - NOTEBOOK_MAX_OUTPUT_CHARS} more characters of output cut)`
    : text;
}

/** ANSI colour codes (tracebacks carry them) make no sense as text. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function outputText(out: NotebookOutput): string {
  if (out.output_type === 'stream') return sourceText(out.text);
  if (out.output_type === 'error') {
    const tb = (out.traceback ?? []).join('\n').replace(ANSI, '');
    return tb || `${out.ename ?? 'Error'}: ${out.evalue ?? ''}`;
  }
  const data = out.data ?? {};
  const plain = data['text/plain'];
  if (plain !== undefined) return sourceText(plain as string | string[]);
  const kinds = Object.keys(data);
  return kinds.length ? `[${kinds.join(', ')} output]` : '';
}

/** The notebook as Read shows it: each cell with its id, type, source and outputs. */
export function renderNotebook(nb: Notebook): string {
  const language = notebookLanguage(nb);
  if (nb.cells.length === 0) return '(The notebook has no cells.)';
  return nb.cells
    .map((cell, i) => {
      const id = cellIdOf(cell, i);
      const head = `<cell id="${id}" type="${cell.cell_type}"${cell.cell_type === 'code' ? ` language="${language}"` : ''}>`;
      const parts = [head, sourceText(cell.source)];
      const outputs = (cell.outputs ?? []).map(outputText).filter((t) => t !== '');
      if (outputs.length) parts.push(`<outputs>\n${cap(outputs.join('\n'))}\n</outputs>`);
      parts.push('</cell>');
      return parts.join('\n');
    })
    .join('\n');
}
