/**
 * The sandbox contract: what every backend must do, as plain async cases with their own small checks
 * (no test framework), so the same cases run under vitest (contract.ts: just-bash and the typed
 * WebContainer fake) and in Chromium against the real WebContainer (`npm run test:webcontainer`).
 * A failed check throws a ContractFailure naming what differed.
 */
import { type Sandbox, SandboxError, type SandboxErrorCode } from './sandbox.ts';

/** A fresh sandbox plus the backend-specific ways to set up what the cases need. */
export interface ContractTarget {
  sandbox: Sandbox;
  /** Creates symlink `link` (relative to the workspace root) pointing at `target`, with the backend's shell. */
  symlink(target: string, link: string): Promise<void>;
  /** A command that prints `started` and a newline, then never ends by itself. */
  forever: string;
}

export type ContractFactory = () => Promise<ContractTarget>;

export interface ContractCase {
  name: string;
  run(target: ContractTarget): Promise<void>;
}

export class ContractFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractFailure';
  }
}

const show = (v: unknown) => {
  const s =
    typeof v === 'string'
      ? JSON.stringify(v)
      : JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? `<${x.length} bytes>` : x));
  return s && s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/** The checks cases use. */
export const check = {
  ok(cond: unknown, what: string): void {
    if (!cond) throw new ContractFailure(what);
  },
  equal<T>(actual: T, expected: T, what: string): void {
    if (!Object.is(actual, expected)) {
      throw new ContractFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  same(actual: unknown, expected: unknown, what: string): void {
    if (show(actual) !== show(expected)) {
      throw new ContractFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
    }
  },
  includes(text: string, part: string, what: string): void {
    if (!text.includes(part))
      throw new ContractFailure(`${what}: expected ${show(text)} to contain ${show(part)}`);
  },
  /** Awaits `p`, which must reject with a SandboxError of one of `codes`; returns it. */
  async rejects(
    p: Promise<unknown>,
    codes: SandboxErrorCode | SandboxErrorCode[],
    what: string,
  ): Promise<SandboxError> {
    const allowed = Array.isArray(codes) ? codes : [codes];
    let value: unknown;
    try {
      value = await p;
    } catch (err) {
      if (err instanceof SandboxError && allowed.includes(err.code)) return err;
      throw new ContractFailure(
        `${what}: expected a SandboxError ${allowed.join('|')}, got ${err instanceof SandboxError ? err.code : String(err)}`,
      );
    }
    throw new ContractFailure(
      `${what}: expected a SandboxError ${allowed.join('|')}, got a result ${show(value)}`,
    );
  },
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `probe` until it returns true (every 50 ms, up to `ms`). */
async function waitFor(probe: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return;
    await sleep(50);
  }
  throw new ContractFailure(`timed out waiting: ${what}`);
}

const encoder = new TextEncoder();

export const CONTRACT_CASES: ContractCase[] = [
  {
    name: 'files: unicode names and content',
    async run({ sandbox: sb }) {
      const name = 'docs/héllo wörld 🌍 日本.md';
      const content = 'ünïcödé ✓ 日本語 — “quotes” 🌍\nline 2\n';
      await sb.writeFile(name, content);
      check.equal(await sb.readFile(name), content, 'read back');
      check.equal((await sb.stat(name)).size, encoder.encode(content).length, 'size is UTF-8 bytes');
      check.equal((await sb.stat(name)).type, 'file', 'type');
      const entries = await sb.readdir('docs');
      check.same(entries, [{ name: 'héllo wörld 🌍 日本.md', type: 'file' }], 'readdir');
      check.ok((await sb.listFiles()).includes(`${sb.root}/${name}`), 'listFiles has the unicode path');
    },
  },
  {
    name: 'files: binary content round-trips byte for byte',
    async run({ sandbox: sb }) {
      const bytes = new Uint8Array(512);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) % 256;
      bytes[0] = 0;
      bytes[1] = 0xff;
      await sb.writeFile('bin/data.bin', bytes);
      const back = await sb.readFileBytes('bin/data.bin');
      check.equal(back.length, bytes.length, 'length');
      check.ok(
        back.every((b, i) => b === bytes[i]),
        'every byte equal',
      );
      check.equal((await sb.stat('bin/data.bin')).size, 512, 'size');
    },
  },
  {
    name: 'files: nested directories, mkdir and rm',
    async run({ sandbox: sb }) {
      await sb.writeFile('a/b/c/d/e.txt', 'deep\n');
      check.same(await sb.readdir('a/b'), [{ name: 'c', type: 'directory' }], 'parents were created');
      check.equal((await sb.stat('a/b/c')).type, 'directory', 'stat of a directory');
      await sb.mkdir('a/b', { recursive: true });
      await check.rejects(sb.mkdir('a/b'), 'EEXIST', 'mkdir of an existing directory');
      await check.rejects(sb.mkdir('x/y'), 'ENOENT', 'mkdir without recursive and no parent');
      await sb.mkdir('x/y/z', { recursive: true });
      check.same(await sb.readdir('x/y'), [{ name: 'z', type: 'directory' }], 'mkdir -p');
      await check.rejects(
        sb.rm('a'),
        ['ENOTEMPTY', 'EISDIR'],
        'rm of a non-empty directory without recursive',
      );
      check.equal(await sb.readFile('a/b/c/d/e.txt'), 'deep\n', 'nothing removed by the refused rm');
      await sb.rm('a', { recursive: true });
      check.equal(await sb.exists('a'), false, 'rm -r removed it');
      check.equal(await sb.exists('a/b/c/d/e.txt'), false, 'and its files');
      await check.rejects(sb.rm(sb.root, { recursive: true }), 'EINVAL', 'the root cannot be removed');
    },
  },
  {
    name: 'files: a 5 MB file',
    async run({ sandbox: sb }) {
      const line = 'abcdefghijklmnopqrstuvwxyz0123456789 the quick brown fox ✓\n';
      const size = 5 * 1024 * 1024;
      let content = line.repeat(Math.ceil(size / line.length));
      content = content.slice(0, size - 1);
      content += '\n';
      await sb.writeFile('big/five-mb.txt', content);
      const back = await sb.readFile('big/five-mb.txt');
      check.equal(back.length, content.length, 'length');
      check.ok(back === content, 'content equal');
      check.equal((await sb.stat('big/five-mb.txt')).size, encoder.encode(content).length, 'size');
    },
  },
  {
    name: 'files: missing paths and wrong types are errors with codes',
    async run({ sandbox: sb }) {
      await sb.writeFile('dir/file.txt', 'x');
      await check.rejects(sb.readFile('nope.txt'), 'ENOENT', 'readFile');
      await check.rejects(sb.readFileBytes('nope.txt'), 'ENOENT', 'readFileBytes');
      await check.rejects(sb.stat('nope.txt'), 'ENOENT', 'stat');
      await check.rejects(sb.readdir('nope'), 'ENOENT', 'readdir');
      await check.rejects(sb.rm('nope.txt'), 'ENOENT', 'rm');
      await sb.rm('nope.txt', { force: true });
      await check.rejects(sb.rename('nope.txt', 'other.txt'), 'ENOENT', 'rename');
      check.equal(await sb.exists('nope.txt'), false, 'exists');
      check.equal(await sb.exists('dir'), true, 'exists (directory)');
      await check.rejects(sb.readFile('dir'), 'EISDIR', 'readFile of a directory');
      await check.rejects(sb.writeFile('dir', 'x'), 'EISDIR', 'writeFile onto a directory');
      await check.rejects(sb.readdir('dir/file.txt'), 'ENOTDIR', 'readdir of a file');
      const err = await check.rejects(sb.readFile('nope.txt'), 'ENOENT', 'message');
      check.includes(err.message, 'nope.txt', 'the message names the path');
    },
  },
  {
    name: 'files: rename, including over an existing file',
    async run({ sandbox: sb }) {
      await sb.writeFile('a.txt', 'A');
      await sb.writeFile('b.txt', 'B');
      await sb.rename('a.txt', 'b.txt');
      check.equal(await sb.readFile('b.txt'), 'A', 'the destination was replaced');
      check.equal(await sb.exists('a.txt'), false, 'the source is gone');
      await sb.rename('b.txt', 'moved/into/new/dirs.txt');
      check.equal(await sb.readFile('moved/into/new/dirs.txt'), 'A', 'parents of the destination created');
      await sb.mkdir('target', { recursive: true });
      await sb.writeFile('c.txt', 'C');
      await check.rejects(sb.rename('c.txt', 'target'), 'EISDIR', 'rename onto a directory');
      check.equal(await sb.readFile('c.txt'), 'C', 'the refused rename kept the source');
      await sb.rename('moved', 'moved2');
      check.equal(await sb.readFile('moved2/into/new/dirs.txt'), 'A', 'a directory moves with its files');
      await check.rejects(sb.rename('moved2', 'moved2/inner'), 'EINVAL', 'a directory into itself');
    },
  },
  {
    name: 'paths outside the workspace are refused and nothing is touched',
    async run({ sandbox: sb }) {
      await sb.writeFile('keep.txt', 'keep');
      await check.rejects(sb.readFile('../outside.txt'), 'EOUTSIDE', '..');
      await check.rejects(sb.readFile('/etc/hosts'), 'EOUTSIDE', 'an absolute path elsewhere');
      await check.rejects(
        sb.writeFile('/tmp/tabcode-contract-escape.txt', 'x'),
        'EOUTSIDE',
        'write elsewhere',
      );
      await check.rejects(sb.rename('keep.txt', '../../keep.txt'), 'EOUTSIDE', 'rename out');
      await check.rejects(sb.rm('..', { recursive: true }), 'EOUTSIDE', 'rm of the parent');
      await check.rejects(sb.listFiles({ root: '/' }), 'EOUTSIDE', 'listing elsewhere');
      check.equal(await sb.readFile('keep.txt'), 'keep', 'the file stayed');
      const probe = await sb.exec('cat /tmp/tabcode-contract-escape.txt', { origin: 'internal' });
      check.ok(probe.exitCode !== 0, 'nothing was written outside');
      await sb.writeFile('~/home-relative.txt', 'h');
      check.equal(await sb.readFile(`${sb.root}/home-relative.txt`), 'h', '~ is the workspace root');
    },
  },
  {
    name: 'symlinks pointing out of the workspace are refused; links inside work',
    async run(t) {
      const sb = t.sandbox;
      const setup = await sb.exec(
        'mkdir -p /tmp/tabcode-outside && echo secret > /tmp/tabcode-outside/secret.txt && echo made',
        { origin: 'internal' },
      );
      check.includes(setup.stdout, 'made', 'outside directory set up');
      await sb.writeFile('src/inner.txt', 'inner\n');
      await t.symlink('/tmp/tabcode-outside', 'out');
      await t.symlink('/tmp/tabcode-outside/secret.txt', 'secret-link.txt');
      await t.symlink('/tmp/tabcode-outside/not-there.txt', 'dangling.txt');
      await t.symlink(`${sb.root}/src`, 'in');
      await check.rejects(sb.readFile('out/secret.txt'), 'EOUTSIDE', 'read through a linked directory');
      await check.rejects(sb.readFile('secret-link.txt'), 'EOUTSIDE', 'read a linked file');
      await check.rejects(sb.writeFile('out/new.txt', 'x'), 'EOUTSIDE', 'write through a linked directory');
      await check.rejects(sb.writeFile('secret-link.txt', 'changed'), 'EOUTSIDE', 'write a linked file');
      await check.rejects(
        sb.writeFile('dangling.txt', 'x'),
        'EOUTSIDE',
        'write a dangling link pointing out',
      );
      await check.rejects(sb.readdir('out'), 'EOUTSIDE', 'list a linked directory');
      await check.rejects(sb.listFiles({ root: 'out' }), 'EOUTSIDE', 'listFiles under a linked directory');
      check.equal((await sb.stat('out')).type, 'symlink', 'the link itself can be stat-ed');
      check.ok(
        (await sb.listFiles()).every((p) => !p.startsWith(`${sb.root}/out/`)),
        'listFiles does not follow links',
      );
      check.equal(await sb.readFile('in/inner.txt'), 'inner\n', 'a link inside the workspace works');
      if (sb.realpath) {
        check.equal(await sb.realpath('in/inner.txt'), `${sb.root}/src/inner.txt`, 'realpath follows a link');
        check.equal(
          await sb.realpath('in/new/file.txt'),
          `${sb.root}/src/new/file.txt`,
          'realpath of a new path',
        );
        check.equal(
          await sb.realpath('src/inner.txt'),
          `${sb.root}/src/inner.txt`,
          'realpath of a plain path',
        );
      }
      const after = await sb.exec('cat /tmp/tabcode-outside/secret.txt; ls /tmp/tabcode-outside', {
        origin: 'internal',
      });
      check.includes(after.stdout, 'secret', 'the outside file is unchanged');
      check.ok(
        !after.stdout.includes('new.txt') && !after.stdout.includes('not-there'),
        'nothing created outside',
      );
      await sb.rm('out');
      check.equal(await sb.exists('out'), false, 'rm removes the link');
      const still = await sb.exec('cat /tmp/tabcode-outside/secret.txt', { origin: 'internal' });
      check.includes(still.stdout, 'secret', 'not what it points to');
    },
  },
  {
    name: 'existsAnywhere: in the workspace and outside it, through a link, a link itself; paths only',
    async run(t) {
      const sb = t.sandbox;
      const at = sb.existsAnywhere?.bind(sb);
      if (!at) return;
      const setup = await sb.exec(
        'mkdir -p /tmp/tabcode-anywhere/bin && echo x > /tmp/tabcode-anywhere/bin/tool && echo made',
        { origin: 'internal' },
      );
      check.includes(setup.stdout, 'made', 'outside folder set up');
      await sb.writeFile('node_modules/.bin/here', 'x');
      await sb.writeFile('plain.txt', 'p');
      await t.symlink('/tmp/tabcode-anywhere/bin', 'linked-bin');
      await t.symlink('/tmp/tabcode-anywhere/gone', 'dangling');
      check.equal(await at(`${sb.root}/node_modules/.bin/here`), true, 'a workspace file');
      check.equal(await at(`${sb.root}/node_modules/.bin`), true, 'a workspace folder');
      check.equal(await at(`${sb.root}/node_modules/.bin/none`), false, 'a missing workspace file');
      check.equal(await at(`${sb.root}/plain.txt/x`), false, 'under a file');
      check.equal(await at(`${sb.root}/src/../node_modules/.bin/here`), true, 'a path with ..');
      check.equal(await at('/tmp/tabcode-anywhere/bin/tool'), true, 'a file outside');
      check.equal(await at('/tmp/tabcode-anywhere/bin'), true, 'a folder outside');
      check.equal(await at('/tmp/tabcode-anywhere/bin/none'), false, 'a missing file outside');
      check.equal(await at('/tmp/tabcode-anywhere-none/bin/tool'), false, 'under a missing folder outside');
      check.equal(await at(`${sb.root}/linked-bin/tool`), true, 'through a link leading out');
      check.equal(await at(`${sb.root}/linked-bin/none`), false, 'missing, through a link');
      check.equal(await at(`${sb.root}/dangling`), true, 'a dangling link is something');
      check.equal(await at('node_modules/.bin/here'), false, 'a relative path is nothing');
      check.equal(await at(`${sb.root}/plain\0.txt`), false, 'a path with a NUL is nothing');
    },
  },
  {
    name: 'exec: exit codes and stderr',
    async run({ sandbox: sb }) {
      check.equal((await sb.exec('true')).exitCode, 0, 'true');
      check.equal((await sb.exec('false')).exitCode, 1, 'false');
      check.equal((await sb.exec('exit 3')).exitCode, 3, 'exit 3');
      const missing = await sb.exec('tabcode_no_such_command_xyz');
      check.ok(missing.exitCode !== 0, 'a missing command fails');
      const r = await sb.exec('echo to-out; echo to-err 1>&2; exit 2');
      check.equal(r.exitCode, 2, 'exit code with output');
      check.includes(r.stdout + r.stderr, 'to-out', 'stdout text');
      check.includes(r.stdout + r.stderr, 'to-err', 'stderr text');
      if (!sb.info().ptyOutput) {
        check.equal(r.stdout, 'to-out\n', 'stdout alone');
        check.equal(r.stderr, 'to-err\n', 'stderr alone');
      }
      const chunks: string[] = [];
      await sb.exec('echo streamed', { onOutput: (c) => chunks.push(c) });
      check.includes(chunks.join(''), 'streamed', 'onOutput gets the output');
    },
  },
  {
    name: 'exec: cwd and exported variables persist per shell session; per-command env does not',
    async run({ sandbox: sb }) {
      await sb.mkdir('sub/dir', { recursive: true });
      const cd = await sb.exec('cd sub/dir');
      check.equal(cd.exitCode, 0, 'cd');
      check.equal(sb.cwd(), `${sb.root}/sub/dir`, 'cwd() follows cd');
      check.includes((await sb.exec('pwd')).stdout, `${sb.root}/sub/dir`, 'the next command runs there');
      await sb.exec('echo here > made-here.txt');
      check.equal(
        await sb.readFile(`${sb.root}/sub/dir/made-here.txt`),
        'here\n',
        'relative writes land in cwd',
      );
      await sb.exec('cd /');
      check.equal(sb.cwd(), sb.root, 'cd out of the workspace falls back to its root');
      await sb.exec('export TABCODE_FOO=bar');
      check.includes((await sb.exec('echo "[$TABCODE_FOO]"')).stdout, '[bar]', 'exported variable kept');
      check.includes(
        (await sb.exec('echo "[$TABCODE_ONCE]"', { env: { TABCODE_ONCE: 'q' } })).stdout,
        '[q]',
        'per-command env',
      );
      check.includes((await sb.exec('echo "[$TABCODE_ONCE]"')).stdout, '[]', 'per-command env is not kept');
      check.includes((await sb.exec('pwd', { cwd: 'sub' })).stdout, `${sb.root}/sub`, 'options.cwd');
      await sb.exec('cd sub && export TABCODE_TERM=t', { session: 'terminal', origin: 'user' });
      check.equal(sb.cwd('terminal'), `${sb.root}/sub`, 'another session has its own cwd');
      check.equal(sb.cwd(), sb.root, 'and does not move the default one');
      check.includes((await sb.exec('echo "[$TABCODE_TERM]"')).stdout, '[]', 'nor share its variables');
      check.includes(
        (await sb.exec('echo "[$TABCODE_TERM]"', { session: 'terminal' })).stdout,
        '[t]',
        'its own',
      );
    },
  },
  {
    name: 'exec: pipes',
    async run({ sandbox: sb }) {
      const r = await sb.exec('echo piped-through | cat | cat');
      check.equal(r.exitCode, 0, 'exit');
      check.includes(r.stdout, 'piped-through', 'output passed through the pipe');
      await sb.exec('echo line-one > piped.txt && echo line-two >> piped.txt');
      check.equal(await sb.readFile('piped.txt'), 'line-one\nline-two\n', 'redirections write files');
    },
  },
  {
    name: 'exec: a command that never ends is killed at its timeout with its output so far',
    async run(t) {
      const sb = t.sandbox;
      const started = Date.now();
      const r = await sb.exec(t.forever, { timeoutMs: 600 });
      const took = Date.now() - started;
      check.equal(r.timedOut, true, 'timedOut');
      check.equal(r.exitCode, 124, 'exit code 124');
      check.includes(r.stdout, 'started', 'output printed before the timeout');
      check.includes(r.stderr, 'timed out', 'a note says it timed out');
      check.ok(took < 5_000, `returned soon after the timeout (${took} ms)`);
      check.includes((await sb.exec('echo still-alive')).stdout, 'still-alive', 'the sandbox still works');
    },
  },
  {
    name: 'exec: abort stops a command',
    async run(t) {
      const sb = t.sandbox;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const started = Date.now();
      const r = await sb.exec(t.forever, { signal: controller.signal });
      check.equal(r.aborted, true, 'aborted');
      check.equal(r.exitCode, 130, 'exit code 130');
      check.ok(Date.now() - started < 5_000, 'returned soon after the abort');
      const pre = new AbortController();
      pre.abort();
      const r2 = await sb.exec(t.forever, { signal: pre.signal });
      check.equal(r2.aborted, true, 'an already-aborted signal');
    },
  },
  {
    name: 'listing for Glob: every file, sorted, skipping node_modules and .git; sees files commands made',
    async run({ sandbox: sb }) {
      for (const p of [
        'l/src/b.ts',
        'l/src/a.ts',
        'l/src/deep/c.ts',
        'l/README.md',
        'l/node_modules/x/i.js',
        'l/.git/HEAD',
      ]) {
        await sb.writeFile(p, `// ${p}\n`);
      }
      await sb.mkdir('l/empty', { recursive: true });
      const mine = (list: string[]) =>
        list.map((p) => p.slice(sb.root.length + 1)).filter((p) => p.startsWith('l/'));
      check.same(
        mine(await sb.listFiles()),
        ['l/README.md', 'l/src/a.ts', 'l/src/b.ts', 'l/src/deep/c.ts'],
        'default listing',
      );
      check.same(
        mine(await sb.listFiles({ root: 'l/src' })),
        ['l/src/a.ts', 'l/src/b.ts', 'l/src/deep/c.ts'],
        'root option',
      );
      check.same(
        mine(await sb.listFiles({ root: 'l', skipDirs: ['deep'] })),
        ['l/.git/HEAD', 'l/README.md', 'l/node_modules/x/i.js', 'l/src/a.ts', 'l/src/b.ts'],
        'skipDirs replaces the default',
      );
      check.same(
        await sb.listFiles({ root: 'l/README.md' }),
        [`${sb.root}/l/README.md`],
        'a file lists itself',
      );
      const all = await sb.listFiles();
      check.ok(
        all.every((p) => p.startsWith(`${sb.root}/`)),
        'absolute paths',
      );
      check.same(all, [...all].sort(), 'sorted');
      await sb.exec('mkdir -p l/made && echo by-shell > l/made/by-shell.txt && rm l/src/a.ts');
      const after = mine(await sb.listFiles());
      check.ok(after.includes('l/made/by-shell.txt'), 'a file a command wrote is listed');
      check.ok(!after.includes('l/src/a.ts'), 'a file a command removed is gone');
      check.equal(await sb.readFile('l/made/by-shell.txt'), 'by-shell\n', 'and readable');
      check.equal((await sb.stat('l/made/by-shell.txt')).size, 9, 'with its size');
    },
  },
  {
    name: 'events: file changes and command runs are announced',
    async run({ sandbox: sb }) {
      const changes: string[] = [];
      const events: string[] = [];
      const offChange = sb.onChange((c) => changes.push(`${c.kind}:${c.path ?? ''}:${c.from ?? ''}`));
      const offEvent = sb.onEvent((e) => {
        if (e.type === 'exec-start') events.push(`start:${e.origin}:${e.command}`);
        if (e.type === 'exec-output') events.push(`output:${e.chunk.replace(/\r/g, '')}`);
        if (e.type === 'exec-end') events.push(`end:${e.exitCode}`);
      });
      await sb.writeFile('e.txt', 'e');
      await sb.rename('e.txt', 'f.txt');
      await sb.rm('f.txt');
      check.ok(changes.includes(`write:${sb.root}/e.txt:`), `write announced (${changes.join(', ')})`);
      check.ok(
        changes.includes(`rename:${sb.root}/f.txt:${sb.root}/e.txt`),
        'rename announced with both paths',
      );
      check.ok(changes.includes(`remove:${sb.root}/f.txt:`), 'remove announced');
      await sb.exec('echo from-agent; exit 4');
      await sb.exec('echo from-user', { origin: 'user' });
      await sb.exec('echo hidden', { origin: 'internal' });
      check.ok(
        changes.some((c) => c.startsWith('exec:')),
        'exec announced as a change',
      );
      if (sb.info().reportsCommandChanges) {
        await sb.exec('echo x > by-command.txt');
        await waitFor(
          () => changes.some((c) => c.startsWith(`write:${sb.root}/by-command.txt:`)),
          5_000,
          'a file a command wrote is announced by path',
        );
      }
      offChange();
      offEvent();
      const text = events.join('|');
      check.includes(text, 'start:agent:echo from-agent; exit 4', 'agent run start');
      check.includes(text, 'output:from-agent', 'agent output');
      check.includes(text, 'end:4', 'agent run end with exit code');
      check.includes(text, 'start:user:echo from-user', 'user run');
      check.ok(!text.includes('hidden'), 'internal runs are not announced');
      const replay = sb.recentEvents().flatMap((e) => (e.type === 'exec-start' ? [e.command] : []));
      check.ok(replay.includes('echo from-agent; exit 4'), 'recentEvents keeps runs for late listeners');
      await sb.writeFile('g.txt', 'g');
      check.ok(!changes.includes(`write:${sb.root}/g.txt:`), 'unsubscribed listeners hear nothing');
    },
  },
  {
    name: 'background processes: start, list, read, kill',
    async run(t) {
      const sb = t.sandbox;
      const server = await sb.startBackground(t.forever);
      check.equal(server.status, 'running', 'starts running');
      check.same(
        sb.listBackground().map((p) => [p.id, p.status]),
        [[server.id, 'running']],
        'listed',
      );
      const quick = await sb.startBackground('echo done-in-background');
      await waitFor(() => sb.readBackground(quick.id).status === 'exited', 10_000, 'a short command ends');
      const q = sb.readBackground(quick.id);
      check.equal(q.exitCode, 0, 'its exit code');
      check.includes(q.output, 'done-in-background', 'its output');
      const killed = await sb.killBackground(server.id);
      check.equal(killed.status, 'killed', 'killed');
      await waitFor(
        () => sb.readBackground(server.id).output.includes('started'),
        5_000,
        'output kept after kill',
      );
      const read = sb.readBackground(server.id);
      check.equal(read.nextOffset >= read.output.length, true, 'nextOffset covers the output');
      check.equal(
        sb.readBackground(server.id, { since: read.nextOffset }).output,
        '',
        'since skips what was read',
      );
      check.equal((await sb.killBackground(server.id)).status, 'killed', 'killing again is a no-op');
      await check.rejects(
        Promise.resolve().then(() => sb.readBackground('bg-nope')),
        'EINVAL',
        'unknown id',
      );
      check.includes((await sb.exec('echo ok')).stdout, 'ok', 'exec still works');
    },
  },
  {
    name: 'info describes the backend',
    async run({ sandbox: sb }) {
      const info = sb.info();
      check.equal(info.kind, sb.kind, 'kind');
      check.ok(info.reason.length > 0, 'a reason');
      check.ok(info.commands.length > 5, 'a command list');
      check.ok(info.commands.includes('ls') && info.commands.includes('cat'), 'basic commands listed');
      check.equal(info.commands.includes('node'), info.hasNode, 'node listed exactly when it exists');
      check.ok(Array.isArray(sb.previews()) && Array.isArray(sb.takeReminders()), 'previews and reminders');
    },
  },
];

/** Runs one case against a fresh target and disposes it afterwards. */
export async function runContractCase(c: ContractCase, factory: ContractFactory): Promise<void> {
  const target = await factory();
  try {
    await c.run(target);
  } finally {
    await target.sandbox.dispose();
  }
}
