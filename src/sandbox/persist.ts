/**
 * The project tree survives a reload: it is saved to IndexedDB (debounced after every change, and on
 * pagehide / when the tab is hidden) and loaded before the sandbox starts, for either backend (the
 * store holds paths relative to the workspace root, so a project moves between backends too).
 *
 * Saves are incremental: changed paths come from the sandbox's change events; after a command, a
 * backend that does not report its file changes one by one is rescanned (stat only; only files whose
 * size or mtime moved are read). `node_modules` is never saved. A failed save (quota) is reported as a
 * status with the error, kept dirty and retried on the next change; it is never dropped silently.
 */
import { clear, entries, promisifyRequest, type UseStore } from 'idb-keyval';
import { messageOf } from '../core/errors.ts';
import { openIdbStore } from '../core/storage.ts';
import { storageName } from '../core/storage-namespace.ts';
import { DEMO_PROJECT } from './demo-project.ts';
import { type FileStat, relativeTo, type Sandbox, type SandboxChange } from './sandbox.ts';
import { Emitter } from './shared.ts';

/** How long after the last change the tree is saved. */
export const PERSIST_DEBOUNCE_MS = 300;
/** Directory names never saved (reinstalled with npm install). */
export const PERSIST_SKIP_DIRS = ['node_modules'];

/** A saved project: files (relative path → bytes) and empty directories. */
export interface ProjectSnapshot {
  files: Map<string, Uint8Array>;
  dirs: string[];
  savedAt: number;
}

/** Where snapshots live. `apply` is one atomic write. */
export interface ProjectStore {
  /** The saved project, or undefined when nothing was saved yet. */
  load(): Promise<ProjectSnapshot | undefined>;
  apply(change: { put: Map<string, Uint8Array>; del: string[]; dirs: string[] }): Promise<void>;
  clear(): Promise<void>;
}

const META_KEY = 'meta';
const FILE_PREFIX = 'f:';

interface Meta {
  version: 1;
  dirs: string[];
  savedAt: number;
}

/** The IndexedDB store (database `name`, default `<namespace>-project`; one object store; keys `f:<path>` and `meta`). */
export function idbProjectStore(name = storageName('project')): ProjectStore {
  let store: UseStore | undefined;
  const use = () => {
    store ??= openIdbStore(name, 'tree');
    return store;
  };
  return {
    async load() {
      const all = await entries<string, unknown>(use());
      const meta = all.find(([k]) => k === META_KEY)?.[1] as Meta | undefined;
      if (!meta) return undefined;
      const files = new Map<string, Uint8Array>();
      for (const [key, value] of all) {
        if (typeof key === 'string' && key.startsWith(FILE_PREFIX) && value instanceof Uint8Array) {
          files.set(key.slice(FILE_PREFIX.length), value);
        }
      }
      return { files, dirs: meta.dirs ?? [], savedAt: meta.savedAt ?? 0 };
    },
    apply({ put, del, dirs }) {
      return use()('readwrite', (s) => {
        for (const [path, bytes] of put) s.put(bytes, `${FILE_PREFIX}${path}`);
        for (const path of del) s.delete(`${FILE_PREFIX}${path}`);
        const meta: Meta = { version: 1, dirs, savedAt: Date.now() };
        s.put(meta, META_KEY);
        return promisifyRequest(s.transaction);
      });
    },
    clear() {
      return clear(use());
    },
  };
}

export type PersistState = 'idle' | 'pending' | 'saving' | 'saved' | 'error';

export interface PersistStatus {
  state: PersistState;
  /** When the last save finished (ms since the epoch). */
  savedAt?: number;
  /** Files in the saved project after the last save. */
  files?: number;
  /** The last save's error, fit to show a user (state 'error'). */
  error?: string;
}

/** A sandbox's persistence: status for the UI, flush, reset to the demo project. */
export interface Persistence {
  status(): PersistStatus;
  onStatus(listener: (status: PersistStatus) => void): () => void;
  /** Saves pending changes now. Never throws: failures become an 'error' status. */
  flush(): Promise<void>;
  /** Replaces the workspace with the demo project (or `files`) and saves that. */
  resetProject(files?: Readonly<Record<string, string | Uint8Array>>): Promise<void>;
  /**
   * Takes in what another tab saved since this sandbox loaded (the store is the origin's, shared by its
   * tabs): this tab's pending changes are saved first, then every saved file that differs from the
   * sandbox's is written into it, and a file this tab saved that the store no longer holds (deleted
   * there) is removed. Never throws: a failure leaves the workspace as it was and is logged.
   */
  reload(): Promise<void>;
  /** Stops listening (pending changes are not saved: call flush first). */
  dispose(): void;
}

/** A message for a storage failure, naming quota problems plainly. */
export function storageErrorMessage(err: unknown): string {
  const name =
    err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException)
      ? err.name
      : '';
  const message = messageOf(err);
  if (name === 'QuotaExceededError' || /quota/i.test(message)) {
    return `The browser's storage is full, so project files were not saved (${message}). Free space or remove large files; changes stay in this tab until then.`;
  }
  return `Project files could not be saved to browser storage: ${message}`;
}

/** Reads the saved project; undefined when none, or when storage cannot be read (logged). */
export async function loadProject(
  store: ProjectStore,
  onError?: (message: string) => void,
): Promise<ProjectSnapshot | undefined> {
  try {
    return await store.load();
  } catch (err) {
    const message = `Saved project files could not be read from browser storage: ${messageOf(err)}`;
    console.error('tabcode:', message, err);
    onError?.(message);
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A snapshot as the `files` option the backends take. */
export function snapshotFiles(snapshot: ProjectSnapshot): Record<string, Uint8Array> {
  return Object.fromEntries(snapshot.files);
}

interface Indexed {
  size: number;
  mtimeMs: number;
}

interface Scan {
  files: Map<string, Indexed>;
  dirs: string[];
}

/**
 * Saves `sandbox`'s tree to `store` from now on. `saved` is what the store holds (from `loadProject`,
 * when the sandbox was started from it): its files are not rewritten until they change.
 */
export function attachPersistence(
  sandbox: Sandbox,
  store: ProjectStore,
  options: { saved?: ProjectSnapshot; debounceMs?: number; onError?: (message: string) => void } = {},
): Persistence {
  const debounceMs = options.debounceMs ?? PERSIST_DEBOUNCE_MS;
  const statusEmitter = new Emitter<PersistStatus>();
  let status: PersistStatus = { state: 'idle' };
  let index: Map<string, Indexed> | undefined;
  let dirs: string[] = options.saved?.dirs ?? [];
  /** Changed paths; true while every change to the path was a mkdir (no scan needed). */
  const dirty = new Map<string, boolean>();
  const mark = (path: string, mkdirOnly: boolean) => dirty.set(path, mkdirOnly && dirty.get(path) !== false);
  let rescan = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> | undefined;
  let again = false;
  let disposed = false;

  const setStatus = (next: PersistStatus) => {
    status = next;
    statusEmitter.emit(next);
  };

  const rel = (abs: string) => relativeTo(sandbox.root, abs);
  const skipped = (path: string) => path.split('/').some((part) => PERSIST_SKIP_DIRS.includes(part));

  /** Every file (size, mtime) and empty directory under `dir` (absolute), skipping node_modules. */
  const scan = async (dir: string, into: Scan): Promise<void> => {
    let list: Awaited<ReturnType<Sandbox['readdir']>>;
    try {
      list = await sandbox.readdir(dir);
    } catch {
      return;
    }
    if (list.length === 0 && dir !== sandbox.root) into.dirs.push(rel(dir));
    for (const entry of list) {
      const abs = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
      if (entry.type === 'directory') {
        if (!PERSIST_SKIP_DIRS.includes(entry.name)) await scan(abs, into);
      } else if (entry.type === 'file') {
        try {
          const st = await sandbox.stat(abs);
          into.files.set(rel(abs), { size: st.size, mtimeMs: st.mtimeMs });
        } catch {
          // Gone meanwhile.
        }
      }
    }
  };

  // What the store holds is what the sandbox started with: index it by the sandbox's own stats.
  const baseline = (async () => {
    if (!options.saved) return;
    const now: Scan = { files: new Map(), dirs: [] };
    await scan(sandbox.root, now);
    index = new Map();
    for (const [path, st] of now.files) if (options.saved.files.has(path)) index.set(path, st);
  })();

  const save = async (): Promise<void> => {
    await baseline;
    const put = new Map<string, Uint8Array>();
    const del: string[] = [];
    const full = rescan || index === undefined;
    const paths = [...dirty];
    dirty.clear();
    rescan = false;
    const nextIndex = new Map(index ?? []);
    const read = async (path: string, st: Indexed) => {
      put.set(path, await sandbox.readFileBytes(`${sandbox.root}/${path}`));
      nextIndex.set(path, st);
    };
    try {
      if (full) {
        const now: Scan = { files: new Map(), dirs: [] };
        await scan(sandbox.root, now);
        for (const [path, st] of now.files) {
          const before = index?.get(path);
          if (!before || before.size !== st.size || before.mtimeMs !== st.mtimeMs) await read(path, st);
        }
        for (const path of nextIndex.keys()) {
          if (!now.files.has(path)) {
            del.push(path);
            nextIndex.delete(path);
          }
        }
        dirs = now.dirs;
      } else {
        for (const [abs, mkdirOnly] of paths) {
          const path = rel(abs);
          if (!path || skipped(path)) continue;
          if (mkdirOnly) {
            // A new directory: its files come with their own changes; only remember it while empty.
            const inside = await sandbox.readdir(abs).catch(() => undefined);
            dirs = dirs.filter((d) => d !== path);
            if (inside?.length === 0) dirs.push(path);
            continue;
          }
          const under = (p: string) => p === path || p.startsWith(`${path}/`);
          const now: Scan = { files: new Map(), dirs: [] };
          let st: FileStat | undefined;
          try {
            st = await sandbox.stat(abs);
          } catch {
            st = undefined;
          }
          if (st?.type === 'file') now.files.set(path, { size: st.size, mtimeMs: st.mtimeMs });
          else if (st?.type === 'directory') await scan(abs, now);
          for (const [p, st] of now.files) await read(p, st);
          for (const p of [...nextIndex.keys()]) {
            if (under(p) && !now.files.has(p)) {
              del.push(p);
              nextIndex.delete(p);
            }
          }
          dirs = [...dirs.filter((d) => !under(d)), ...now.dirs];
        }
      }
      if (put.size || del.length || full || paths.length) await store.apply({ put, del, dirs });
      index = nextIndex;
      setStatus({ state: 'saved', savedAt: Date.now(), files: index.size });
    } catch (err) {
      // Keep the work for the next attempt.
      for (const [p, mkdirOnly] of paths) mark(p, mkdirOnly);
      if (full) rescan = true;
      const message = storageErrorMessage(err);
      console.error('tabcode:', message, err);
      options.onError?.(message);
      setStatus({ ...status, state: 'error', error: message });
    }
  };

  const run = (): Promise<void> => {
    if (saving) {
      again = true;
      return saving;
    }
    clearTimeout(timer);
    timer = undefined;
    lastRun = Date.now();
    if (!dirty.size && !rescan && index !== undefined) return Promise.resolve();
    setStatus({ ...status, state: 'saving' });
    saving = save().finally(() => {
      saving = undefined;
      if (again && !disposed) {
        again = false;
        void run();
      }
    });
    return saving;
  };

  // Leading edge: the first change after a quiet spell is saved at once (a reload right after a Write
  // must not lose it); changes that follow in a burst are batched by the debounce.
  let lastRun = 0;
  const schedule = () => {
    if (disposed) return;
    if (status.state !== 'saving') setStatus({ ...status, state: 'pending' });
    clearTimeout(timer);
    const quiet = !saving && Date.now() - lastRun >= debounceMs;
    timer = setTimeout(() => void run(), quiet ? 0 : debounceMs);
  };

  const reportsCommandChanges = sandbox.info().reportsCommandChanges === true;
  const offChange = sandbox.onChange((change: SandboxChange) => {
    if (change.kind === 'exec') {
      if (reportsCommandChanges) return;
      rescan = true;
    } else {
      if (change.path) mark(change.path, change.kind === 'mkdir');
      if (change.from) mark(change.from, false);
    }
    schedule();
  });

  const onHide = () => void run();
  const onVisibility = () => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') void run();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
  }

  return {
    status: () => status,
    onStatus: (listener) => statusEmitter.add(listener),
    async flush() {
      await baseline;
      if (saving) await saving;
      await run();
      if (saving) await saving;
    },
    async resetProject(files = DEMO_PROJECT) {
      await baseline;
      await sandbox.exec(`cd '${sandbox.root}'`, { origin: 'internal' });
      for (const entry of await sandbox.readdir(sandbox.root)) {
        await sandbox.rm(`${sandbox.root}/${entry.name}`, { recursive: true, force: true });
      }
      for (const [path, content] of Object.entries(files))
        await sandbox.writeFile(`${sandbox.root}/${path}`, content);
      rescan = true;
      await this.flush();
    },
    async reload() {
      await this.flush();
      const saved = await loadProject(store, options.onError);
      if (!saved) return;
      try {
        for (const [path, bytes] of saved.files) {
          const abs = `${sandbox.root}/${path}`;
          const current = await sandbox.readFileBytes(abs).catch(() => undefined);
          if (!current || !sameBytes(current, bytes)) await sandbox.writeFile(abs, bytes);
        }
        for (const path of [...(index?.keys() ?? [])]) {
          if (!saved.files.has(path)) await sandbox.rm(`${sandbox.root}/${path}`, { force: true });
        }
        for (const dir of saved.dirs) await sandbox.mkdir(`${sandbox.root}/${dir}`, { recursive: true });
      } catch (err) {
        console.error('tabcode: the project saved by another tab could not be loaded', err);
      }
      await this.flush();
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      offChange();
      statusEmitter.clear();
      if (typeof window !== 'undefined') {
        window.removeEventListener('pagehide', onHide);
        document.removeEventListener('visibilitychange', onVisibility);
      }
    },
  };
}
