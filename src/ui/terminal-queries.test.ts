import { Terminal } from '@xterm/xterm';
import { describe, expect, it } from 'vitest';
import { LineEditor } from './line-editor.ts';
import { dropTerminalQueries, isColourQuery } from './terminal-queries.ts';

/** What xterm emits as input while it parses `output`. */
async function repliesTo(output: string, guarded: boolean): Promise<string[]> {
  const term = new Terminal({ allowProposedApi: true });
  if (guarded) dropTerminalQueries(term);
  const got: string[] = [];
  term.onData((d) => got.push(d));
  await new Promise<void>((resolve) => term.write(output, resolve));
  term.dispose();
  return got;
}

const QUERIES = [
  '\x1b[c',
  '\x1b[0c',
  '\x1b[>c',
  '\x1b[5n',
  '\x1b[6n',
  '\x1b[?6n',
  '\x1b[?25$p',
  '\x1b[4$p',
  '\x1b[>q',
  '\x1b[14t',
  '\x1b]11;?\x07',
  '\x1b]10;?\x1b\\',
  '\x1b]4;1;?\x07',
  '\x1bP$qm\x1b\\',
];

/**
 * The queries xterm answers in Node (no renderer). The OSC colour queries are answered in a browser
 * (they need the theme service), XTVERSION and window reports need options off by default.
 */
const ANSWERED = new Set([
  '\x1b[c',
  '\x1b[0c',
  '\x1b[>c',
  '\x1b[5n',
  '\x1b[6n',
  '\x1b[?6n',
  '\x1b[?25$p',
  '\x1b[4$p',
  '\x1bP$qm\x1b\\',
]);

describe('terminal query replies', () => {
  it('real xterm answers queries as input when unguarded (the attack exists)', async () => {
    const got = await repliesTo('\x1b[c\x1b[6n\x1b[>c', false);
    expect(got).toContain('\x1b[?1;2c');
    expect(got).toContain('\x1b[1;1R');
  });

  it.each(QUERIES)('drops the reply to %j', async (query) => {
    const unguarded = await repliesTo(`before ${query} after\r\n`, false);
    // Only the queries this xterm answers (some need a renderer or an option) prove the guard.
    if (ANSWERED.has(query)) expect(unguarded.length).toBeGreaterThan(0);
    expect(await repliesTo(`before ${query} after\r\n`, true)).toEqual([]);
  });

  it('covers a query xterm answers of each kind', () => {
    expect(ANSWERED.size).toBeGreaterThanOrEqual(6);
  });

  it('a hostile file printed to the terminal types nothing into the line editor', async () => {
    const editor = new LineEditor('$ ');
    const term = new Terminal({ allowProposedApi: true });
    dropTerminalQueries(term);
    term.onData((d) => editor.feed(d));
    await new Promise<void>((r) => term.write(`cat: ${QUERIES.join('')}rm -rf ~\r\n`, r));
    expect(editor.line).toBe('');
    term.dispose();
  });

  it('leaves the sequences that are no queries to xterm (colours are still set)', async () => {
    const term = new Terminal({ allowProposedApi: true });
    dropTerminalQueries(term);
    await new Promise<void>((r) => term.write('\x1b[31mred\x1b[0m \x1b[2;5Hx', r));
    const line = term.buffer.active.getLine(0)?.translateToString(true);
    expect(line?.trimEnd()).toBe('red');
    expect(term.buffer.active.cursorX).toBe(5);
    expect(term.buffer.active.cursorY).toBe(1);
    term.dispose();
  });

  it('isColourQuery tells a query from a colour being set', () => {
    expect(isColourQuery('?')).toBe(true);
    expect(isColourQuery('1;?')).toBe(true);
    expect(isColourQuery('rgb:ff/00/00')).toBe(false);
    expect(isColourQuery('1;#ff0000')).toBe(false);
  });
});
