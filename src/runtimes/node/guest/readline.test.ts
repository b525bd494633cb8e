/**
 * node:readline in the real QuickJS engine against Node's own: each script under
 * testing/fixtures/readline runs in Node (stdin piped from the given text) and in the guest (stdin a
 * Readable over the same bytes, as the engine provides it), and must print the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GuestHarness } from './testing/harness.ts';
import { runScriptInGuest, runScriptInNode } from './testing/script-differential.ts';

const FIXTURES = new URL('./testing/fixtures/readline/', import.meta.url).pathname;

/**
 * Gives the guest a process.stdin that reads `input` and then ends, as a pipe does: the bytes come in
 * one chunk, and the end of input on a later turn of the event loop (a pipe's EOF is a separate event,
 * so code awaiting the lines runs before 'end').
 */
function pipedStdin(input: string) {
  return (h: GuestHarness) => {
    h.eval(`{
      const { Readable } = require('stream');
      const { Buffer } = require('buffer');
      const bytes = ${JSON.stringify(input)};
      let sent = false;
      process.stdin = new Readable({
        read() {
          if (sent) return;
          sent = true;
          if (bytes) this.push(Buffer.from(bytes));
          setImmediate(() => this.push(null));
        },
      });
    }`);
  };
}

const CASES: [file: string, stdin: string][] = [
  ['question.js', 'alice\nbob\r\ncarol\rdave'],
  ['question.js', 'abc'],
  ['question.js', ''],
  ['iterate.js', 'one\ntwo\n\nfour\n'],
  ['iterate.js', 'no newline at the end'],
  ['break.js', 'one\ntwo\nthree\n'],
  ['promises-question.js', '1\n2\n'],
  ['lines.js', ''],
  ['cursor.js', ''],
];

describe('readline behaves as Node', () => {
  for (const [file, stdin] of CASES) {
    it(`${file} with stdin ${JSON.stringify(stdin)}`, async () => {
      const code = readFileSync(`${FIXTURES}${file}`, 'utf8');
      const node = runScriptInNode(code, stdin);
      const guest = await runScriptInGuest(code, pipedStdin(stdin));
      expect(guest.output).toBe(node.output);
      expect(guest.exitCode).toBe(node.exitCode);
    });
  }
});

describe('readline in the guest', () => {
  it('question() after close throws ERR_USE_AFTER_CLOSE; bad input is a clear TypeError', async () => {
    const { output } = await runScriptInGuest(
      `const readline = require('readline');
      const rl = readline.createInterface({ input: process.stdin });
      rl.close();
      try { rl.question('x', () => {}); } catch (e) { console.log(e.code, e.message); }
      try { readline.createInterface({ input: 42 }); } catch (e) { console.log(e.code); }`,
      pipedStdin(''),
    );
    expect(output).toBe('ERR_USE_AFTER_CLOSE readline was closed\nERR_INVALID_ARG_TYPE\n');
  });

  it('readline/promises question() rejects with AbortError when its signal aborts', async () => {
    const { output } = await runScriptInGuest(
      `const rl = require('readline/promises').createInterface({ input: process.stdin, output: process.stdout });
      const ac = new AbortController();
      rl.question('wait? ', { signal: ac.signal }).catch((e) => { console.log('\\n' + e.name, e.code); rl.close(); });
      ac.abort();`,
      (h) => h.eval(`process.stdin = new (require('stream').PassThrough)();`),
    );
    expect(output).toBe('wait? \nAbortError ABORT_ERR\n');
  });
});
