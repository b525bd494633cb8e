/**
 * Booting the WebContainer: once per page (the API allows one instance), shared across Vite HMR and
 * React StrictMode remounts through a global slot, with a time limit, and torn down a little after its
 * last user lets go. The `coep` option must match the page's Cross-Origin-Embedder-Policy header, so
 * it is read from the page's own response headers.
 */
import type { WebContainer } from '@webcontainer/api';
import { messageOf } from '../core/errors.ts';
import type { WebContainerApi } from './webcontainer.ts';

/** Where StackBlitz's runtime is loaded from (the API's iframe; overridable like the API allows). */
export function runtimeOrigin(): string {
  const override = (globalThis as { WEBCONTAINER_API_IFRAME_URL?: string }).WEBCONTAINER_API_IFRAME_URL;
  try {
    return new URL(override ?? 'https://stackblitz.com').origin;
  } catch {
    return 'https://stackblitz.com';
  }
}

/** Why a boot failed, fit to show a user. */
export class BootError extends Error {
  readonly kind: 'not-isolated' | 'unreachable' | 'timeout' | 'failed';
  constructor(kind: BootError['kind'], message: string) {
    super(message);
    this.name = 'BootError';
    this.kind = kind;
  }
}

export type Coep = 'require-corp' | 'credentialless' | 'none';

export interface BootRequest {
  /** Give up after this many milliseconds. */
  timeoutMs: number;
  /**
   * Also fetch the runtime's page (no-cors); when that fails, wait only this many milliseconds more
   * for the boot. A page that cannot reach StackBlitz then falls back in seconds instead of waiting
   * for the time limit. (A grace rather than giving up at once: a response the browser blocks for its
   * headers fails the same way as a network error, and the boot may still succeed.)
   */
  probeGraceMs?: number;
  /** Folder name of the workdir (`/home/<name>`). */
  workdirName?: string;
}

interface Slot {
  boot?: Promise<WebContainer>;
  instance?: WebContainer;
  users: number;
  teardownTimer?: ReturnType<typeof setTimeout>;
}

const SLOT_KEY = Symbol.for('tabcode.webcontainer');
/** How long an unused instance is kept (a StrictMode remount or an HMR update picks it up again). */
const TEARDOWN_GRACE_MS = 3_000;

function slot(): Slot {
  const g = globalThis as { [SLOT_KEY]?: Slot };
  g[SLOT_KEY] ??= { users: 0 };
  return g[SLOT_KEY];
}

/** The page's COEP, from its own response headers (same-origin, so readable); a guess when unreadable. */
export async function detectCoep(): Promise<Coep> {
  const fallback: Coep = globalThis.crossOriginIsolated ? 'require-corp' : 'none';
  if (typeof location === 'undefined') return fallback;
  try {
    const res = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
    const value = res.headers.get('cross-origin-embedder-policy')?.split(';')[0].trim();
    if (value === 'require-corp' || value === 'credentialless') return value;
    return res.ok ? 'none' : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Resolves never; rejects with BootError('unreachable') `graceMs` after the runtime's page failed to
 * fetch. `stop` cancels the pending rejection.
 */
function probeRuntime(graceMs: number): { failed: Promise<never>; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const failed = new Promise<never>((_, reject) => {
    fetch(`${runtimeOrigin()}/headless`, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' }).catch(
      () => {
        if (stopped) return;
        timer = setTimeout(
          () =>
            reject(
              new BootError(
                'unreachable',
                `StackBlitz's WebContainer runtime (${runtimeOrigin()}) cannot be reached`,
              ),
            ),
          graceMs,
        );
      },
    );
  });
  return {
    failed,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function bootOnce(workdirName: string | undefined): Promise<WebContainer> {
  const s = slot();
  if (s.boot) return s.boot;
  const boot = (async () => {
    const [{ WebContainer }, coep] = await Promise.all([import('@webcontainer/api'), detectCoep()]);
    return WebContainer.boot({ coep, workdirName, forwardPreviewErrors: true });
  })();
  s.boot = boot;
  boot.then(
    (instance) => {
      s.instance = instance;
      // Booted after every caller gave up waiting: nobody will use it.
      if (s.users === 0) scheduleTeardown();
    },
    () => {
      if (s.boot === boot) s.boot = undefined;
    },
  );
  return boot;
}

function scheduleTeardown(): void {
  const s = slot();
  clearTimeout(s.teardownTimer);
  s.teardownTimer = setTimeout(() => {
    if (s.users > 0 || !s.instance) return;
    const instance = s.instance;
    s.instance = undefined;
    s.boot = undefined;
    try {
      instance.teardown();
    } catch (err) {
      console.warn('tabcode: WebContainer teardown failed', err);
    }
  }, TEARDOWN_GRACE_MS);
}

export interface AcquiredWebContainer {
  wc: WebContainerApi;
  /** Lets go of the instance; the last release tears it down after a grace period. Idempotent. */
  release: () => void;
}

/**
 * The page's WebContainer, booting it if needed. Rejects with a BootError when the page is not
 * cross-origin isolated, the runtime cannot be reached (with `probe`), the boot fails, or it takes
 * longer than `timeoutMs` (the boot goes on and is torn down if nobody picks it up).
 */
export async function acquireWebContainer(request: BootRequest): Promise<AcquiredWebContainer> {
  if (!globalThis.crossOriginIsolated) {
    throw new BootError(
      'not-isolated',
      'the page is not cross-origin isolated (it needs COOP: same-origin and COEP: require-corp or credentialless)',
    );
  }
  const s = slot();
  clearTimeout(s.teardownTimer);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new BootError('timeout', `it did not boot within ${Math.round(request.timeoutMs / 1000)} s`)),
      request.timeoutMs,
    );
  });
  const probe = request.probeGraceMs === undefined ? undefined : probeRuntime(request.probeGraceMs);
  let wc: WebContainer;
  try {
    wc = await Promise.race([bootOnce(request.workdirName), limit, ...(probe ? [probe.failed] : [])]);
  } catch (err) {
    if (err instanceof BootError) throw err;
    throw new BootError('failed', `it failed to boot: ${messageOf(err)}`);
  } finally {
    clearTimeout(timer);
    probe?.stop();
  }
  s.users++;
  let released = false;
  return {
    wc,
    release: () => {
      if (released) return;
      released = true;
      s.users--;
      if (s.users === 0) scheduleTeardown();
    },
  };
}
