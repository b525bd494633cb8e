/**
 * Persistence on IndexedDB (fake-indexeddb in Node) for both backends: what a reload restores, what
 * each save writes, failures surfaced, reset to the demo project.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT } from './demo-project.ts';
import { createJustBashSandbox } from './just-bash.ts';
import {
  attachPersistence,
  idbProjectStore,
  loadProject,
  type PersistStatus,
  type ProjectStore,
  snapshotFiles,
} from './persist.ts';
import type { Sandbox } from './sandbox.ts';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import { createWebContainerSandbox } from './webcontainer.ts';

let dbSeq = 0;
const freshStore = () => idbProjectStore(`tabcode-persist-test-${++dbSeq}`);

/** A store that records what each save wrote, and can be made to fail. */
function spyStore(inner: ProjectStore) {
  const writes: { put: string[]; del: string[]; dirs: string[] }[] = [];
  let failWith: unknown;
  const store: ProjectStore = {
    load: () => inner.load(),
    clear: () => inner.clear(),
    async apply(change) {
      if (failWith) throw failWith;
      writes.push({
        put: [...change.put.keys()].sort(),
        del: [...change.del].sort(),
        dirs: [...change.dirs].sort(),
      });
      return inner.apply(change);
    },
  };
  return { store, writes, fail: (err: unknown) => (failWith = err) };
}

const backends: [string, (files: Record<string, string | Uint8Array>) => Promise<Sandbox>][] = [
  ['just-bash', (files) => createJustBashSandbox({ files })],
  ['webcontainer (fake)', (files) => createWebContainerSandbox(new FakeWebContainer(), { files })],
];

describe.each(backends)('persistence on %s', (_name, create) => {
  it('two tabs on one store: reload takes in what the other saved (new, changed, deleted files)', async () => {
    const store = freshStore();
    // The first tab saves the project; the second starts from it, as a second tab of the page does.
    const first = await create({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const firstPersist = attachPersistence(first, store, { debounceMs: 20 });
    await first.writeFile('keep.txt', 'keep\n');
    await firstPersist.flush();
    const saved = (await loadProject(store)) as NonNullable<Awaited<ReturnType<typeof loadProject>>>;
    const second = await create(snapshotFiles(saved));
    const secondPersist = attachPersistence(second, store, { saved, debounceMs: 20 });
    await second.writeFile('mine.txt', 'from the second tab\n');
    await secondPersist.flush();
    // The first tab goes on: a new file, a changed one, a deleted one.
    await first.writeFile('late.txt', 'late\n');
    await first.writeFile('a.txt', 'a changed\n');
    await first.rm('b.txt');
    await firstPersist.flush();
    // Before: the second tab's workspace lacked late.txt and still had b.txt after taking over.
    await secondPersist.reload();
    expect(await second.readFile('late.txt')).toBe('late\n');
    expect(await second.readFile('a.txt')).toBe('a changed\n');
    await expect(second.readFile('b.txt')).rejects.toThrow();
    expect(await second.readFile('mine.txt')).toBe('from the second tab\n');
    const after = await loadProject(store);
    expect([...(after?.files.keys() ?? [])].sort()).toEqual(
      ['a.txt', 'keep.txt', 'late.txt', 'mine.txt'].sort(),
    );
    firstPersist.dispose();
    secondPersist.dispose();
  });

  it('saves the tree after changes (debounced) and a new sandbox restores it', async () => {
    const store = freshStore();
    const sb = await create({ 'README.md': '# hi\n' });
    const persistence = attachPersistence(sb, store, { debounceMs: 20 });
    const states: PersistStatus['state'][] = [];
    persistence.onStatus((s) => states.push(s.state));
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    await sb.writeFile('src/ünï 🌍.txt', 'unicode ✓\n');
    await sb.writeFile('assets/logo.bin', bytes);
    await sb.mkdir('empty/dir', { recursive: true });
    await sb.writeFile('node_modules/pkg/index.js', 'module.exports = 1;\n');
    await sb.exec('echo from-shell > shell.txt');
    await expect.poll(() => persistence.status().state, { timeout: 5_000 }).toBe('saved');
    await persistence.flush();
    expect(states).toContain('pending');

    const saved = await loadProject(store);
    expect(saved).toBeDefined();
    expect([...(saved?.files.keys() ?? [])].sort()).toEqual(
      ['README.md', 'assets/logo.bin', 'shell.txt', 'src/ünï 🌍.txt'].sort(),
    );
    expect(saved?.dirs).toEqual(['empty/dir']);

    const again = await create(snapshotFiles(saved as NonNullable<typeof saved>));
    expect(await again.readFile('src/ünï 🌍.txt')).toBe('unicode ✓\n');
    expect([...(await again.readFileBytes('assets/logo.bin'))]).toEqual([...bytes]);
    expect(await again.readFile('shell.txt')).toBe('from-shell\n');
    expect(await again.exists('node_modules')).toBe(false);
    persistence.dispose();
  });

  it('writes only what changed, including what a command changed or removed', async () => {
    const seed = freshStore();
    const first = await create({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'dir/c.txt': 'c\n' });
    const p1 = attachPersistence(first, seed, { debounceMs: 5 });
    await first.writeFile('a.txt', 'a\n');
    await p1.flush();
    const saved = await loadProject(seed);
    const { store, writes } = spyStore(seed);
    const sb = await create(snapshotFiles(saved as NonNullable<typeof saved>));
    const persistence = attachPersistence(sb, store, { saved, debounceMs: 5 });
    await persistence.flush();
    expect(writes).toEqual([]);
    await sb.writeFile('b.txt', 'b2\n');
    await persistence.flush();
    expect(writes.at(-1)?.put).toEqual(['b.txt']);
    await sb.exec('echo new > dir/new.txt && rm a.txt');
    await persistence.flush();
    const last = writes.at(-1);
    expect(last?.put).toEqual(['dir/new.txt']);
    expect(last?.del).toEqual(['a.txt']);
    await sb.rename('dir', 'moved');
    await persistence.flush();
    expect(writes.at(-1)?.put).toEqual(['moved/c.txt', 'moved/new.txt']);
    expect(writes.at(-1)?.del).toEqual(['dir/c.txt', 'dir/new.txt']);
    const final = await loadProject(seed);
    expect([...(final?.files.keys() ?? [])].sort()).toEqual(['b.txt', 'moved/c.txt', 'moved/new.txt']);
    p1.dispose();
    persistence.dispose();
  });

  it('shows a storage failure (quota), keeps the change and saves it once storage works again', async () => {
    const { store, fail } = spyStore(freshStore());
    const sb = await create({ 'a.txt': 'a\n' });
    const errors: string[] = [];
    const persistence = attachPersistence(sb, store, { debounceMs: 5, onError: (m) => errors.push(m) });
    await persistence.flush();
    fail(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    await sb.writeFile('big.txt', 'x'.repeat(1000));
    await persistence.flush();
    expect(persistence.status().state).toBe('error');
    expect(persistence.status().error).toContain('storage is full');
    expect(errors).toHaveLength(1);
    fail(undefined);
    await sb.writeFile('other.txt', 'o');
    await persistence.flush();
    expect(persistence.status().state).toBe('saved');
    const saved = await loadProject(store);
    expect(saved?.files.has('big.txt')).toBe(true);
    expect(saved?.files.has('other.txt')).toBe(true);
    persistence.dispose();
  });

  it('reset brings back the demo project, in the sandbox and in storage', async () => {
    const store = freshStore();
    const sb = await create({ 'mine.txt': 'mine\n', 'src/index.js': 'changed\n' });
    const persistence = attachPersistence(sb, store, { debounceMs: 5 });
    await sb.exec('mkdir -p sub && cd sub');
    await persistence.resetProject();
    expect(await sb.exists('mine.txt')).toBe(false);
    expect(await sb.readFile('src/index.js')).toBe(DEMO_PROJECT['src/index.js']);
    expect(sb.cwd()).toBe(sb.root);
    const saved = await loadProject(store);
    expect([...(saved?.files.keys() ?? [])].sort()).toEqual(Object.keys(DEMO_PROJECT).sort());
    persistence.dispose();
  });
});

describe('project store', () => {
  it('has nothing before the first save, and reports a storage that cannot be read', async () => {
    expect(await loadProject(freshStore())).toBeUndefined();
    const errors: string[] = [];
    const broken: ProjectStore = {
      load: () => Promise.reject(new Error('blocked')),
      apply: () => Promise.resolve(),
      clear: () => Promise.resolve(),
    };
    expect(await loadProject(broken, (m) => errors.push(m))).toBeUndefined();
    expect(errors[0]).toContain('could not be read from browser storage: blocked');
  });
});
