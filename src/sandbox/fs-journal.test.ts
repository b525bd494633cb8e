/**
 * The file-system journal against the real just-bash sandbox: a copy of the workspace built from the
 * journal alone (plus a read-back of the paths it marks `changed`, as the sandbox worker does) equals
 * the workspace, byte for byte, after commands that write, append, rewrite in place, move, copy and
 * remove, in UTF-8 and in raw bytes, through the shell and through the API.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from './fs-journal.ts';
import { createJustBashSandbox } from './just-bash.ts';
import type { Sandbox } from './sandbox.ts';
import { WorkspaceBackup } from './worker/backup.ts';

const ROOT = '/home/user/project';

async function journaled(files: Record<string, string>) {
  const entries: JournalEntry[] = [];
  const sb = await createJustBashSandbox({ files, journal: (e) => entries.push(e) });
  // What making the sandbox reports (its root directory) is not a change to the files it was given.
  entries.length = 0;
  const copy = new WorkspaceBackup();
  for (const [path, content] of Object.entries(files))
    copy.set(`${ROOT}/${path}`, new TextEncoder().encode(content));
  /** Applies the journal so far, then reads back the `changed` paths as the worker's later flush does. */
  const catchUp = async () => {
    const changed: string[] = [];
    for (const e of entries.splice(0)) {
      if (e.op === 'changed') changed.push(e.path);
      else copy.apply([e]);
    }
    for (const path of changed) {
      const e = { path };
      const st = await sb.stat(e.path).catch(() => undefined);
      if (!st) copy.apply([{ op: 'remove', path: e.path }]);
      else if (st.type === 'file') copy.set(e.path, await sb.readFileBytes(e.path));
      else if (st.type === 'directory')
        for (const f of await sb.listFiles({ root: e.path, skipDirs: [] }))
          copy.set(f, await sb.readFileBytes(f));
    }
  };
  return { sb, copy, entries, catchUp };
}

async function workspace(sb: Sandbox): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const f of (await sb.listFiles({ root: ROOT, skipDirs: [] })).sort())
    out[f] = [...(await sb.readFileBytes(f))];
  return out;
}

const asArrays = (files: Record<string, Uint8Array>) =>
  Object.fromEntries(Object.entries(files).map(([k, v]) => [k, [...v]]));

describe('the file-system journal', () => {
  it('rebuilds the workspace exactly from what it reported', async () => {
    const { sb, copy, catchUp } = await journaled({
      'a.txt': 'one\n',
      'keep/x.txt': 'x\n',
      'gone.txt': 'bye\n',
    });
    const script = [
      'echo "héllo ✓ 日本" > u.txt',
      "printf '\\377\\000\\001\\200' > raw.bin",
      'for i in 1 2 3 4 5; do echo line $i >> log.txt; done',
      'seq 1 2000 | tee -a log.txt > /dev/null',
      "sed -i 's/one/ONE/' a.txt",
      'mkdir -p dir/sub && echo deep > dir/sub/f.txt && echo top > dir/t.txt',
      'mv dir moved',
      'cp a.txt copy.txt && cp -r moved again',
      'rm gone.txt && rm -r again/sub',
      'mv keep/x.txt keep/y.txt',
      'ln -s a.txt link.txt; chmod 600 copy.txt; touch empty.txt',
      'cat a.txt >> u.txt',
    ];
    for (const command of script) {
      const r = await sb.exec(command);
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(0);
    }
    await sb.writeFile(`${ROOT}/api.bin`, new Uint8Array([0, 255, 10, 13]));
    await sb.writeFile(`${ROOT}/api.txt`, 'through the API ✓\n');
    await catchUp();
    const real = await workspace(sb);
    // The link reads as its target in the real listing; the copy keeps the target's bytes under both.
    const rebuilt = asArrays(copy.snapshot());
    const sizes = (files: Record<string, number[]>) =>
      Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.length]));
    expect(sizes(rebuilt)).toEqual(sizes(real));
    expect(rebuilt).toEqual(real);
    expect(real[`${ROOT}/api.bin`]).toEqual([0, 255, 10, 13]);
    await sb.dispose();
  });

  it('reports appends as the bytes appended, not the whole file again', async () => {
    const { sb, entries } = await journaled({});
    await sb.exec('for i in $(seq 1 200); do echo "entry $i" >> big.log; done');
    const appends = entries.filter((e) => e.op === 'append' && e.path === `${ROOT}/big.log`);
    expect(appends.length).toBeGreaterThanOrEqual(199);
    const sent = appends.reduce((n, e) => n + (e.op === 'append' ? e.data.length : 0), 0);
    expect(sent).toBe((await sb.readFileBytes(`${ROOT}/big.log`)).length);
    await sb.dispose();
  });

  it('leaves out what is outside the workspace', async () => {
    const { sb, entries } = await journaled({});
    await sb.exec('echo t > /tmp/t.txt && mv /tmp/t.txt in.txt && mv in.txt /tmp/out.txt');
    expect(entries.map((e) => `${e.op} ${'path' in e ? e.path : `${e.from}→${e.to}`}`)).toEqual([
      `changed ${ROOT}/in.txt`,
      `remove ${ROOT}/in.txt`,
    ]);
    await sb.dispose();
  });
});
