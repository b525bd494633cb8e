import { describe, expect, it } from 'vitest';
import { type EditorAction, LineEditor } from './line-editor.ts';

const submits = (actions: EditorAction[]) => actions.flatMap((a) => (a.type === 'submit' ? [a.line] : []));
const written = (actions: EditorAction[]) =>
  actions.flatMap((a) => (a.type === 'write' ? [a.text] : [])).join('');

describe('LineEditor', () => {
  it('echoes typing and submits the line on Enter, then waits until the command is done', () => {
    const ed = new LineEditor('$ ');
    expect(written(ed.feed('ls -la'))).toBe('ls -la');
    const enter = ed.feed('\r');
    expect(submits(enter)).toEqual(['ls -la']);
    expect(written(enter)).toBe('\r\n');
    expect(ed.busy).toBe(true);
    expect(ed.feed('typed while busy')).toEqual([]);
    ed.busy = false;
    expect(ed.line).toBe('');
  });

  it('edits in the middle of the line with arrows, Backspace, Delete, Home and End', () => {
    const ed = new LineEditor('$ ');
    ed.feed('echo hllo');
    ed.feed('\x1b[D\x1b[D\x1b[D'); // cursor before "llo"
    ed.feed('e');
    expect(ed.line).toBe('echo hello');
    ed.feed('\x01'); // Home
    ed.feed('\x1b[3~'); // Delete "e"
    expect(ed.line).toBe('cho hello');
    ed.feed('\x05\x7f'); // End, Backspace
    expect(ed.line).toBe('cho hell');
    const render = ed.render();
    expect(render).toBe('\r\x1b[K$ cho hell');
    ed.feed('\x1b[D\x1b[D');
    expect(ed.render()).toBe('\r\x1b[K$ cho hell\x1b[2D');
    ed.feed('\x15'); // Ctrl-U
    expect(ed.line).toBe('');
  });

  it('walks history with ↑/↓ and keeps the draft', () => {
    const ed = new LineEditor('$ ');
    for (const cmd of ['one', 'two']) {
      ed.feed(`${cmd}\r`);
      ed.busy = false;
    }
    ed.feed('dra');
    ed.feed('\x1b[A');
    expect(ed.line).toBe('two');
    ed.feed('\x1b[A');
    expect(ed.line).toBe('one');
    ed.feed('\x1b[A');
    expect(ed.line).toBe('one');
    ed.feed('\x1b[B\x1b[B');
    expect(ed.line).toBe('dra');
  });

  it('Ctrl-C cancels the line, or interrupts the running command', () => {
    const ed = new LineEditor('$ ');
    ed.feed('half typed');
    const cancel = ed.feed('\x03');
    expect(written(cancel)).toContain('^C\r\n');
    expect(ed.line).toBe('');
    ed.feed('sleep 100\r');
    expect(ed.feed('\x03')).toEqual([{ type: 'interrupt' }]);
  });

  it('a pasted block runs its first line; empty lines only redraw the prompt; unknown escapes are skipped', () => {
    const ed = new LineEditor('$ ');
    expect(submits(ed.feed('\r'))).toEqual([]);
    expect(ed.busy).toBe(false);
    expect(submits(ed.feed('echo a\r\necho b'))).toEqual(['echo a']);
    ed.busy = false;
    expect(ed.feed('\x1b[15~\x1bOP')).toEqual([]);
    ed.feed('ünï 🌍');
    expect(ed.line).toBe('ünï 🌍');
  });
});
