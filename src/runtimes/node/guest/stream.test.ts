/**
 * node:stream in the real QuickJS engine against Node's own: each script under
 * testing/fixtures/stream runs in Node and in the guest, and must print the same lines in the same
 * order (events, callbacks, data) with the same exit code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScriptInGuest, runScriptInNode } from './testing/script-differential.ts';

const FIXTURES = new URL('./testing/fixtures/stream/', import.meta.url).pathname;

describe('stream behaves as Node', () => {
  for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith('.js'))) {
    it(name, async () => {
      const code = readFileSync(`${FIXTURES}${name}`, 'utf8');
      const node = runScriptInNode(code);
      const guest = await runScriptInGuest(code);
      expect(guest.output).toBe(node.output);
      expect(guest.exitCode).toBe(node.exitCode);
    });
  }
});

describe('stream in the guest', () => {
  it("uses Node 22's default high-water marks", async () => {
    const { output } = await runScriptInGuest(`const s = require('stream');
      console.log(s.getDefaultHighWaterMark(false), s.getDefaultHighWaterMark(true),
        new s.Readable().readableHighWaterMark, new s.Writable({ objectMode: true }).writableHighWaterMark);`);
    expect(output).toBe('65536 16 65536 16\n');
  });

  it('exposes stream/promises and the promisified forms', async () => {
    const { output } = await runScriptInGuest(`const s = require('stream'); const util = require('util');
      console.log(s.promises === require('stream/promises'), typeof s.promises.pipeline, typeof s.promises.finished,
        util.promisify(s.pipeline) === s.promises.pipeline, s.Stream === s, typeof s.Readable.from);`);
    expect(output).toBe('true function function true true function\n');
  });

  it('stream/web loads; its classes say what to use instead', async () => {
    const { output } = await runScriptInGuest(`const web = require('stream/web');
      try { new web.ReadableStream(); } catch (e) { console.log(e.code, e.message); }`);
    expect(output).toBe(
      "ERR_NOT_SUPPORTED new stream/web.ReadableStream() is not available in tabcode's built-in sandbox: web streams are not implemented in this runtime; use node:stream (Readable, Writable, Transform).\n",
    );
  });

  it('an unhandled stream error is an uncaught error, as in Node', async () => {
    const code = `const { Writable } = require('stream');
      const w = new Writable({ write(c, e, cb) { cb(new Error('disk full')); } });
      w.write('x');`;
    await expect(runScriptInGuest(code)).rejects.toThrow(/disk full/);
    expect(runScriptInNode(code).output).toMatch(/Error: disk full/);
  });
});
