// buffer, string_decoder, querystring and os in the guest: against Node's own where the answers are
// Node's, by behaviour where they describe the sandbox (os).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { rng } from '../testing/value-gen.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

const EVAL = `(src, require) => (0, eval)('(Buffer, require) => ' + src)(require('buffer').Buffer, require)`;

describe('buffer matches Node', () => {
  it('encodings round-trip, including base64url', () => {
    const texts = ['', 'hi', 'hello world', 'é€😀', '\u0000\u00ff', 'a'.repeat(100), '??>>', 'line\nbreak'];
    const encodings = [
      'utf8',
      'utf-8',
      'hex',
      'base64',
      'base64url',
      'latin1',
      'binary',
      'ascii',
      'ucs2',
      'utf16le',
      'UTF8',
      'Base64',
    ];
    expectSameAsNode(
      h,
      `([t, e], require) => { const { Buffer } = require('buffer'); const b = Buffer.from(t); const s = b.toString(e);
      return [s, Buffer.from(s, e).toString('hex'), Buffer.byteLength(s, e), Buffer.isEncoding(e)]; }`,
      texts.flatMap((t) => encodings.map((e) => [t, e])),
    );
    expectSameAsNode(h, EVAL, [
      "Buffer.from('-_-_', 'base64url').toString('hex')",
      "Buffer.from('+/+/', 'base64').toString('base64url')",
      "Buffer.from('aGk', 'base64').toString()",
      "Buffer.from('aGk=', 'base64url').toString()",
      "Buffer.alloc(4).write('ff00', 'hex')",
      "(() => { const b = Buffer.alloc(6); b.write('abc', 1, 'latin1'); b.write('zz', 4, 1); return b.toString('hex'); })()",
      "Buffer.alloc(5, 'ab').toString()",
      "Buffer.alloc(4, 'aGk=', 'base64').toString()",
      "Buffer.alloc(3).fill('x').toString()",
      'Buffer.from([1, 2, 3]).toJSON()',
      "Buffer.concat([Buffer.from('a'), Buffer.from('bc')]).toString()",
      "Buffer.compare(Buffer.from('a'), Buffer.from('b'))",
      "Buffer.from('abc').equals(Buffer.from('abc'))",
      "Buffer.from('hello').subarray(1, 3).toString()",
      "Buffer.from('hello').slice(-3).toString()",
      "(() => { const b = Buffer.alloc(8); b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); return [b.toString('hex'), b.readUInt32BE(0), b.readInt16LE(4)]; })()",
      '(() => { const b = Buffer.alloc(8); b.writeDoubleLE(1.5); return b.readDoubleLE(0); })()',
      "Buffer.from('hello').indexOf('l')",
      "Buffer.from('hello').includes('ell')",
      "Buffer.isBuffer(Buffer.from('x')) && !Buffer.isBuffer(new Uint8Array(1))",
      'Buffer.from(new Uint8Array([1, 2]).buffer).length',
      "Buffer.copyBytesFrom(new Uint16Array([1, 2]), 1).toString('hex')",
      "Buffer.from('hi').hexSlice()",
      "Buffer.from('hi').utf8Slice(0, 1)",
      "Buffer.from('abc', 'nope')",
      "Buffer.from('abc').toString('nope')",
      'Buffer.from(5)',
      'Buffer.from(null)',
      "Buffer.alloc('5')",
      'Buffer.byteLength(5)',
      "Buffer.from('x').write(5)",
    ]);
  });

  it('decodes random bytes as UTF-8 the way Node does (one U+FFFD per maximal invalid subsequence)', () => {
    const next = rng(23);
    const pool = [
      0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x82, 0xac,
      0x9f, 0xa0,
    ];
    const inputs = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 8) }, () => pool[Math.floor(next() * pool.length)]),
    );
    expectSameAsNode(
      h,
      `(bytes, require) => { const b = require('buffer').Buffer.from(bytes); return [b.toString(), b.toString('utf8', 1), b.toString('utf8', 0, 3)]; }`,
      inputs,
    );
  });

  it('util.inspect of Buffers', () => {
    expectSameAsNode(
      h,
      `(src, require) => require('util').inspect((0, eval)('(Buffer) => ' + src)(require('buffer').Buffer))`,
      [
        "Buffer.from('hi')",
        'Buffer.alloc(0)',
        'Buffer.alloc(60)',
        'Buffer.alloc(51)',
        "Object.assign(Buffer.from('ab'), { tag: 'x' })",
        "[Buffer.from('a'), { b: Buffer.from('bb') }]",
        "new Map([['k', Buffer.from([255])]])",
      ],
    );
  });

  it('module exports: atob, btoa, isUtf8, isAscii, transcode, constants', () => {
    expectSameAsNode(h, `(src, require) => (0, eval)('(b) => ' + src)(require('buffer'))`, [
      "b.btoa('hello')",
      "b.atob('aGVsbG8=')",
      "[b.isUtf8(b.Buffer.from('é')), b.isUtf8(b.Buffer.from([0xff])), b.isAscii(b.Buffer.from('a')), b.isAscii(b.Buffer.from('é'))]",
      "b.transcode(b.Buffer.from('héllo'), 'utf8', 'latin1').toString('hex')",
      "b.transcode(b.Buffer.from('hé'), 'utf8', 'ucs2').toString('hex')",
      "b.transcode(b.Buffer.from('€'), 'utf8', 'latin1').toString('hex')",
      'b.INSPECT_MAX_BYTES',
      'typeof b.kMaxLength + typeof b.constants.MAX_LENGTH + typeof b.constants.MAX_STRING_LENGTH',
      'b.isUtf8(5)',
    ]);
  });
});

describe('buffer in the guest', () => {
  it('rejects bad sizes with ERR_OUT_OF_RANGE (the limit is 2^31-1 here, 2^32 in Node)', () => {
    const out = h.eval(
      `{ const r = []; for (const n of [-1, 2 ** 31, NaN]) { try { Buffer.alloc(n); } catch (e) { r.push(e.code); } } JSON.stringify(r) }`,
    );
    expect(JSON.parse(out as string)).toEqual(['ERR_OUT_OF_RANGE', 'ERR_OUT_OF_RANGE', 'ERR_OUT_OF_RANGE']);
  });

  it('is the global Buffer', () => {
    expect(h.eval(`Buffer === require('buffer').Buffer && Buffer === require('node:buffer').Buffer`)).toBe(
      true,
    );
  });
});

describe('string_decoder matches Node', () => {
  it('decodes random chunkings of text in every encoding', () => {
    const next = rng(17);
    const texts = ['héllo wörld', '€€€ and 😀😀 emoji', 'plain ascii text', '中文字符测试', 'mixed é€😀 a'];
    const inputs: [string, string, number[]][] = [];
    for (const encoding of ['utf8', 'utf16le', 'base64', 'base64url', 'hex', 'latin1', 'ascii']) {
      for (const text of texts) {
        for (let k = 0; k < 6; k++) {
          const cuts: number[] = [];
          for (let i = 0; i < 4; i++) cuts.push(Math.floor(next() * 30));
          inputs.push([encoding, text, cuts.sort((a, b) => a - b)]);
        }
      }
    }
    expectSameAsNode(
      h,
      `([encoding, text, cuts], require) => {
      const { StringDecoder } = require('string_decoder');
      const { Buffer } = require('buffer');
      const bytes = Buffer.from(text, encoding === 'utf16le' ? 'utf16le' : 'utf8');
      const d = new StringDecoder(encoding);
      const out = [];
      let last = 0;
      for (const cut of cuts) { out.push(d.write(bytes.subarray(last, Math.max(last, cut)))); last = Math.max(last, cut); }
      out.push(d.end(bytes.subarray(last)));
      return out;
    }`,
      inputs,
    );
  });

  it('invalid and truncated input, and the constructor', () => {
    expectSameAsNode(
      h,
      `(body, require) => (0, eval)('(S, B) => {' + body + '}')(require('string_decoder').StringDecoder, require('buffer').Buffer)`,
      [
        `const d = new S(); return [d.write(B.from([0xff, 0x61, 0xc3])), d.write(B.from([0x28])), d.end()];`,
        `const d = new S('utf8'); return [d.write(B.from([0xe2])), d.write(B.from([0x82])), d.end(), d.end()];`,
        `const d = new S('utf8'); return [d.write(B.from([0xf0, 0x9f])), d.end(B.from([0x98]))];`,
        `const d = new S('utf16le'); return [d.write(B.from([0x3d])), d.write(B.from([0xd8, 0x00])), d.end()];`,
        `const d = new S('utf16le'); return [d.write(B.from([0x61, 0x00, 0x3d, 0xd8])), d.end()];`,
        `const d = new S('base64'); return [d.write(B.from('ab')), d.write(B.from('cd')), d.end()];`,
        `return [new S().encoding, new S('UCS2').encoding, new S('binary').encoding, new S('utf-8').encoding, new S('base64url').encoding];`,
        `return new S().write('a string');`,
        `return new S('nope');`,
        `return new S().write(5);`,
        `const d = new S(); return d.write(new Uint8Array([104, 105]));`,
      ],
    );
  });
});

describe('querystring matches Node', () => {
  it('parse, stringify, escape and unescape', () => {
    expectSameAsNode(h, `(s, require) => ({ ...require('querystring').parse(s) })`, [
      'a=1&b=2', 'a=1&a=2&a=3', '=x', 'a', '&', '&&a=1&&', 'a=1=2', 'a+b=c+d', '%zz=%41%', 'a=%F0%9F%98%80', '=', 'a=&=b', '__proto__=1', '', 'x=%E2%82',
    ]); // biome-ignore format: a table
    expectSameAsNode(
      h,
      `([s, sep, eq, o], require) => ({ ...require('querystring').parse(s, sep, eq, o) })`,
      [
        ['a:1;b:2', ';', ':'],
        ['a=1&b=2&c=3', '&', '=', { maxKeys: 2 }],
        ['a=1&b=2', null, null, { maxKeys: 0 }],
        ['a==1', '&', '=='],
      ],
    );
    expectSameAsNode(h, `(src, require) => (0, eval)('(qs) => ' + src)(require('querystring'))`, [
      "qs.stringify({ a: [1, 2], b: 'x y', c: true, d: null, e: undefined, f: NaN, g: {}, h: [], i: 1e21, j: 3n })",
      "qs.stringify({ a: 1, b: 2 }, ';', ':')",
      "qs.stringify({ 'key with space': 'é&=' })",
      "qs.stringify({ a: 'x' }, null, null, { encodeURIComponent: (s) => s.toUpperCase() })",
      'qs.stringify(null)',
      "qs.stringify('str')",
      "qs.escape('a b&é~!*()\\'')",
      'qs.escape(123)',
      "qs.escape('\\ud800')",
      "qs.unescape('a%20b+c')",
      "qs.unescape('%zz%41')",
      "qs.unescapeBuffer('a%41+b', true).toString()",
      'qs.encode === qs.stringify && qs.decode === qs.parse',
    ]);
  });
});

describe('os in the guest', () => {
  it('describes a Linux sandbox named tabcode', () => {
    const out = h.eval(`{ const os = require('os'); JSON.stringify({
      platform: os.platform(), type: os.type(), hostname: os.hostname(), homedir: os.homedir(), tmpdir: os.tmpdir(),
      EOL: os.EOL, endianness: os.endianness(), arch: os.arch(), cpus: os.cpus().length, cpu: Object.keys(os.cpus()[0]),
      times: Object.keys(os.cpus()[0].times), parallel: os.availableParallelism(), loadavg: os.loadavg(),
      user: os.userInfo(), devNull: os.devNull, sig: [os.constants.signals.SIGINT, os.constants.signals.SIGTERM, os.constants.signals.SIGKILL],
      errno: os.constants.errno.ENOENT, lo: os.networkInterfaces().lo[0].address }) }`);
    expect(JSON.parse(out as string)).toEqual({
      platform: 'linux',
      type: 'Linux',
      hostname: 'tabcode',
      homedir: '/home/user/project',
      tmpdir: '/tmp',
      EOL: '\n',
      endianness: 'LE',
      arch: 'x64',
      cpus: 1,
      cpu: ['model', 'speed', 'times'],
      times: ['user', 'nice', 'sys', 'idle', 'irq'],
      parallel: 1,
      loadavg: [0, 0, 0],
      user: { uid: 1000, gid: 1000, username: 'user', homedir: '/home/user/project', shell: '/bin/bash' },
      devNull: '/dev/null',
      sig: [2, 15, 9],
      errno: 2,
      lo: '127.0.0.1',
    });
  });

  it('has plausible memory and uptime figures, and follows TMPDIR and HOME', () => {
    const out =
      h.eval(`{ const os = require('os'); process.env.TMPDIR = '/var/tmp/'; process.env.HOME = '/root';
      const r = [os.totalmem() >= os.freemem(), os.freemem() > 0, os.uptime() >= 0, os.tmpdir(), os.homedir(), os.release().length > 0];
      delete process.env.TMPDIR; process.env.HOME = '/home/user/project'; JSON.stringify(r) }`);
    expect(JSON.parse(out as string)).toEqual([true, true, true, '/var/tmp', '/root', true]);
  });

  it('has the same export names as Node', () => {
    expectSameAsNode(
      h,
      `(k, require) => [Object.keys(require('os')).sort(), Object.keys(require('os').constants), Object.keys(require('os').constants.signals)]`,
      [0],
    );
  });
});
