/**
 * The Chromium half of bench/sandbox.ts (built for production, served with COOP/COEP): just-bash boot to
 * first exec, and saving / restoring the 5,000-file tree in the browser's real IndexedDB. Results go to
 * `window.benchResult`; `?phase=boot` only measures the boot (the page is reloaded for each sample).
 */
import { makeTree, TREE_BYTES, TREE_FILES } from '../sandbox-tree.ts';

declare global {
  interface Window {
    benchResult?: Record<string, number | string>;
  }
}

const params = new URLSearchParams(location.search);

async function boot(): Promise<Record<string, number>> {
  const t0 = performance.now();
  const { createJustBashSandbox } = await import('../../src/sandbox/just-bash.ts');
  const t1 = performance.now();
  const sandbox = await createJustBashSandbox({ files: { 'README.md': '# bench\n' } });
  const t2 = performance.now();
  const first = await sandbox.exec('echo ready');
  const t3 = performance.now();
  if (first.stdout !== 'ready\n') throw new Error(`unexpected output ${first.stdout}`);
  await sandbox.exec('echo again');
  const t4 = performance.now();
  return {
    sinceNavigation: t3,
    importMs: t1 - t0,
    createMs: t2 - t1,
    firstExecMs: t3 - t2,
    secondExecMs: t4 - t3,
    scriptStartToFirstExec: t3 - t0,
  };
}

async function saveRestore(): Promise<Record<string, number>> {
  const { createJustBashSandbox } = await import('../../src/sandbox/just-bash.ts');
  const { attachPersistence, idbProjectStore, loadProject, snapshotFiles } = await import(
    '../../src/sandbox/persist.ts'
  );
  const tree = makeTree();
  const store = idbProjectStore(`tabcode-bench-${Date.now()}`);
  await store.clear();
  const sandbox = await createJustBashSandbox({ files: tree });
  const persistence = attachPersistence(sandbox, store, { debounceMs: 1 });
  // A first save writes everything (as after a reset, or the first change of a new project).
  await sandbox.exec('echo start > started.txt');
  const s0 = performance.now();
  await persistence.flush();
  const fullSave = performance.now() - s0;
  if (persistence.status().state !== 'saved') throw new Error(persistence.status().error);
  // An edit of one file: an incremental save.
  await sandbox.writeFile('pkg-00/mod-0/file-0000.js', 'changed\n');
  const i0 = performance.now();
  await persistence.flush();
  const oneFileSave = performance.now() - i0;
  // A command: its file changes arrive as events from the file system, so only they are saved.
  await sandbox.exec('echo x > pkg-01/new.txt');
  const r0 = performance.now();
  await persistence.flush();
  const afterCommandSave = performance.now() - r0;
  persistence.dispose();
  // Restore: read the store, then start a sandbox with it.
  const l0 = performance.now();
  const saved = await loadProject(store);
  const l1 = performance.now();
  if (!saved || saved.files.size !== TREE_FILES + 2) throw new Error(`restored ${saved?.files.size} files`);
  const restored = await createJustBashSandbox({ files: snapshotFiles(saved) });
  const l2 = performance.now();
  const check = await restored.exec('cat pkg-00/mod-0/file-0000.js');
  if (check.stdout !== 'changed\n') throw new Error('restored content differs');
  let bytes = 0;
  for (const b of saved.files.values()) bytes += b.byteLength;
  await store.clear();
  return {
    fullSave,
    oneFileSave,
    afterCommandSave,
    load: l1 - l0,
    restoreSandbox: l2 - l1,
    files: saved.files.size,
    bytes,
    treeBytes: TREE_BYTES,
  };
}

(async () => {
  try {
    window.benchResult = params.get('phase') === 'boot' ? await boot() : await saveRestore();
  } catch (err) {
    window.benchResult = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
})();
