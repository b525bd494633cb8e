/**
 * Which sandbox a page gets, and opening it with its saved files.
 *
 * The choice: `?sandbox=webcontainer|just-bash|auto` in the page URL, else the setting (localStorage
 * `tabcode.sandbox`, written by `saveSandboxPreference`), else `auto`. `auto` is the built-in just-bash
 * sandbox, which has Node.js (node, npm) in a worker, works offline and in any page, and is ready at once:
 * nothing waits for a WebContainer. The WebContainer (a full Node.js VM: servers, native npm) is used
 * when asked for; it needs a cross-origin-isolated page and StackBlitz's servers, and falls back to
 * just-bash when it cannot boot. Every outcome carries a reason for the UI and the system prompt.
 */

import { messageOf } from '../core/errors.ts';
import { storageName } from '../core/storage-namespace.ts';
import { DEMO_PROJECT } from './demo-project.ts';
import { createJustBashSandbox } from './just-bash.ts';
import {
  attachPersistence,
  idbProjectStore,
  loadProject,
  type Persistence,
  type ProjectStore,
  snapshotFiles,
} from './persist.ts';
import type { Sandbox, SandboxKind } from './sandbox.ts';
import { createWebContainerSandbox } from './webcontainer.ts';
import {
  type AcquiredWebContainer,
  acquireWebContainer,
  BootError,
  type BootRequest,
} from './webcontainer-boot.ts';

export type SandboxPreference = 'auto' | 'webcontainer' | 'just-bash';
export const SANDBOX_PREFERENCES: readonly SandboxPreference[] = ['auto', 'webcontainer', 'just-bash'];

/** localStorage key of the sandbox setting: `<namespace>.sandbox` (`tabcode.sandbox`). */
export const sandboxSettingKey = (): string => storageName('sandbox', '.');
/** Asked for explicitly: how long the WebContainer may take to boot. */
export const WEBCONTAINER_EXPLICIT_TIMEOUT_MS = 60_000;
/** How long a boot may still take once StackBlitz's runtime page failed to load. */
export const WEBCONTAINER_UNREACHABLE_GRACE_MS = { explicit: 10_000 } as const;
/** The WebContainer's workdir is /home/<name>. */
export const WEBCONTAINER_WORKDIR_NAME = 'project';

function isPreference(value: unknown): value is SandboxPreference {
  return typeof value === 'string' && (SANDBOX_PREFERENCES as readonly string[]).includes(value);
}

/** localStorage, or undefined where there is none or reading it throws (blocked third-party storage). */
function pageStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** The preference and where it came from. Never throws (storage may be blocked). */
export function readSandboxPreference(
  search: string = typeof location === 'undefined' ? '' : location.search,
  storage: Pick<Storage, 'getItem'> | undefined = pageStorage(),
): { preference: SandboxPreference; source: 'url' | 'setting' | 'default' } {
  const fromUrl = new URLSearchParams(search).get('sandbox');
  if (isPreference(fromUrl)) return { preference: fromUrl, source: 'url' };
  try {
    const saved = storage?.getItem(sandboxSettingKey());
    if (isPreference(saved)) return { preference: saved, source: 'setting' };
  } catch {
    // Storage blocked: the default.
  }
  return { preference: 'auto', source: 'default' };
}

/** Stores the setting (takes effect on the next page load). Returns false when storage is blocked. */
export function saveSandboxPreference(
  preference: SandboxPreference,
  storage: Pick<Storage, 'setItem'> | undefined = pageStorage(),
): boolean {
  try {
    storage?.setItem(sandboxSettingKey(), preference);
    return storage !== undefined;
  } catch {
    return false;
  }
}

export interface SandboxSelection {
  kind: SandboxKind;
  requested: SandboxPreference;
  source: 'url' | 'setting' | 'default' | 'caller';
  /** Why this backend runs, in a sentence (shown in the UI, sent in the system prompt). */
  reason: string;
  /** A WebContainer was wanted and could not be had. */
  fellBack: boolean;
}

export interface OpenSandboxOptions {
  /** Default: `readSandboxPreference()`. */
  preference?: SandboxPreference;
  /** The project when nothing was saved (default: the demo project). */
  files?: Readonly<Record<string, string | Uint8Array>>;
  /** Where the tree is saved; null: not saved. Default: the IndexedDB store. */
  store?: ProjectStore | null;
  /** Storage problems (load or save), for the UI. */
  onStorageError?: (message: string) => void;
  /**
   * Where the just-bash sandbox runs: 'worker' (default where there are Web Workers: off the page's
   * thread, so no command can freeze the page) or 'main' (tests in Node, and `?sandbox-thread=main`).
   */
  thread?: 'worker' | 'main';
  /** Seams for tests. */
  acquire?: (request: BootRequest) => Promise<AcquiredWebContainer>;
  isolated?: boolean;
}

/** The thread the just-bash sandbox runs on: the option, else `?sandbox-thread=`, else a worker where possible. */
function sandboxThread(requested: OpenSandboxOptions['thread']): 'worker' | 'main' {
  if (requested) return requested;
  const fromUrl =
    typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('sandbox-thread');
  if (fromUrl === 'main' || fromUrl === 'worker') return fromUrl;
  return typeof Worker === 'undefined' ? 'main' : 'worker';
}

/** The just-bash sandbox on its thread; a worker that cannot start falls back to the page's thread. */
async function openJustBash(
  files: Record<string, string | Uint8Array>,
  reason: string,
  thread: 'worker' | 'main',
): Promise<Sandbox> {
  if (thread === 'worker') {
    try {
      const { createWorkerSandbox } = await import('./worker-sandbox.ts');
      return await createWorkerSandbox({ files, reason });
    } catch (err) {
      console.warn('tabcode: the sandbox worker could not start; running the sandbox on the page', err);
    }
  }
  return createJustBashSandbox({ files, reason });
}

export interface OpenedSandbox {
  sandbox: Sandbox;
  selection: SandboxSelection;
  persistence?: Persistence;
  /** Whether the files came from storage (else from `files`). */
  restored: boolean;
  /** Saves pending changes, stops persistence, disposes the sandbox, lets go of the WebContainer. */
  close(): Promise<void>;
}

const opened = new WeakMap<Sandbox, OpenedSandbox>();

/** What `openSandbox` returned for `sandbox` (its selection and persistence), if it made it. */
export function sandboxHost(sandbox: Sandbox): OpenedSandbox | undefined {
  return opened.get(sandbox);
}

/**
 * Picks and starts the sandbox, with the saved project (else `files`), and saves it from then on.
 * Never rejects for a WebContainer that cannot boot (just-bash runs instead, with the reason).
 */
export async function openSandbox(options: OpenSandboxOptions = {}): Promise<OpenedSandbox> {
  const read = options.preference ? undefined : readSandboxPreference();
  const requested = options.preference ?? read?.preference ?? 'auto';
  const source = read?.source ?? 'caller';
  const store = options.store === undefined ? idbProjectStore() : options.store;
  const saved = store ? await loadProject(store, options.onStorageError) : undefined;
  const files = saved ? snapshotFiles(saved) : { ...(options.files ?? DEMO_PROJECT) };

  let sandbox: Sandbox | undefined;
  let acquired: AcquiredWebContainer | undefined;
  let selection: SandboxSelection;
  const via =
    source === 'url' ? ' (?sandbox= in the URL)' : source === 'setting' ? ' (the sandbox setting)' : '';

  if (requested === 'just-bash' || requested === 'auto') {
    selection = {
      kind: 'just-bash',
      requested,
      source,
      reason:
        requested === 'auto'
          ? 'just-bash: the built-in sandbox, ready at once and offline (a simulated bash with Node.js in a worker); a WebContainer can be chosen in the Files panel'
          : `just-bash was chosen${via}: the built-in sandbox (a simulated bash with Node.js in a worker)`,
      fellBack: false,
    };
  } else {
    const isolated = options.isolated ?? globalThis.crossOriginIsolated === true;
    let failure: string;
    if (!isolated) {
      failure = 'the page is not cross-origin isolated (it needs COOP and COEP headers)';
    } else {
      try {
        acquired = await (options.acquire ?? acquireWebContainer)({
          timeoutMs: WEBCONTAINER_EXPLICIT_TIMEOUT_MS,
          probeGraceMs: WEBCONTAINER_UNREACHABLE_GRACE_MS.explicit,
          workdirName: WEBCONTAINER_WORKDIR_NAME,
        });
        const reason = `WebContainer was chosen${via}: a Node.js VM in the page`;
        sandbox = await createWebContainerSandbox(acquired.wc, { files, reason });
        failure = '';
      } catch (err) {
        acquired?.release();
        acquired = undefined;
        failure = err instanceof BootError ? err.message : `it failed to start: ${messageOf(err)}`;
      }
    }
    selection = sandbox
      ? { kind: 'webcontainer', requested, source, reason: sandbox.info().reason, fellBack: false }
      : {
          kind: 'just-bash',
          requested,
          source,
          reason: `WebContainer unavailable: ${failure}. Using just-bash instead (a simulated bash with Node.js in a worker)`,
          fellBack: true,
        };
  }

  sandbox ??= await openJustBash(files, selection.reason, sandboxThread(options.thread));
  const persistence = store
    ? attachPersistence(sandbox, store, { saved, onError: options.onStorageError })
    : undefined;
  const box = sandbox;
  let closed: Promise<void> | undefined;
  const result: OpenedSandbox = {
    sandbox: box,
    selection,
    persistence,
    restored: saved !== undefined,
    close() {
      closed ??= (async () => {
        await persistence?.flush();
        persistence?.dispose();
        await box.dispose();
        acquired?.release();
      })();
      return closed;
    },
  };
  opened.set(box, result);
  return result;
}
