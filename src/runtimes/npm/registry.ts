/**
 * The package registry over `host.fetch`: packuments (abbreviated documents) and tarballs, with
 * retries, a timeout, a cap on parallel requests, the host's tarball cache and integrity checks.
 * Every failure becomes an NpmError with npm's wording; nothing here writes to the file system.
 */
import { type NpmConfig, registryFor } from './config.ts';
import {
  DEFAULT_REGISTRY,
  FETCH_CONCURRENCY,
  FETCH_RETRIES,
  FETCH_RETRY_DELAY_MS,
  FETCH_TIMEOUT_MS,
  PACKUMENT_ACCEPT,
} from './constants.ts';
import { checkAbort, NpmAbortError, NpmError, registryUnreachable } from './errors.ts';
import type { NpmHost } from './host.ts';
import { checkIntegrity, sha512Integrity } from './integrity.ts';

/** One version's metadata, as a packument or a lock file entry has it. */
export interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: string | Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  deprecated?: string;
  hasInstallScript?: boolean;
  license?: string;
  funding?: unknown;
  scripts?: Record<string, string>;
  dist?: { tarball?: string; integrity?: string; shasum?: string };
}

export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, Manifest>;
}

/** A registry answer other than 2xx (the caller words the message: it knows the spec). */
export class RegistryStatusError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
  ) {
    super(`${status} ${statusText} - GET ${url}`);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `@scope/name` → `@scope%2fname`, as registries expect it in a packument URL. */
export function escapeName(name: string): string {
  return name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

export class Registry {
  private readonly packuments = new Map<string, Promise<Packument>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param command what the user ran (`npm install`), for the offline message. */
  constructor(
    private readonly host: NpmHost,
    private readonly config: NpmConfig,
    private readonly command: string,
  ) {}

  packumentUrl(name: string): string {
    return `${registryFor(this.config, name)}${escapeName(name)}`;
  }

  /** The packument of `name` (one request per command, or none while the host's memory cache is fresh). */
  packument(name: string): Promise<Packument> {
    let p = this.packuments.get(name);
    if (!p) {
      p = this.loadPackument(name);
      // A prefetch nobody awaits must not become an unhandled rejection.
      p.catch(() => {});
      this.packuments.set(name, p);
    }
    return p;
  }

  private async loadPackument(name: string): Promise<Packument> {
    const url = this.packumentUrl(name);
    const cached = this.host.packuments?.get(url) as Packument | undefined;
    if (cached) return cached;
    const res = await this.request(url, PACKUMENT_ACCEPT, registryFor(this.config, name));
    let doc: Packument;
    try {
      doc = JSON.parse(new TextDecoder().decode(res)) as Packument;
    } catch {
      throw new NpmError('EINVALIDRESPONSE', [
        'code EINVALIDRESPONSE',
        `The registry's answer for ${name} is not JSON - GET ${url}`,
      ]);
    }
    if (!doc || typeof doc !== 'object' || typeof doc.versions !== 'object' || !doc.versions) {
      throw new NpmError('EINVALIDRESPONSE', [
        'code EINVALIDRESPONSE',
        `The registry's packument for ${name} has no versions - GET ${url}`,
      ]);
    }
    doc['dist-tags'] ??= {};
    this.host.packuments?.set(url, doc);
    return doc;
  }

  /**
   * The tarball's bytes, from the host's cache or the registry, checked against `integrity` (or the
   * sha1 `shasum`). Returns the integrity to record (computed as sha512 when none was given). Throws
   * EINTEGRITY on a mismatch.
   */
  async tarball(
    url: string,
    integrity: string | undefined,
    shasum: string | undefined,
    label: string,
  ): Promise<{ bytes: Uint8Array; integrity: string; fromCache: boolean }> {
    const cacheKey = integrity || url;
    const cache = this.host.cache;
    if (cache) {
      const hit = await cache.get(cacheKey).catch(() => undefined);
      checkAbort(this.host.signal);
      if (hit && (integrity || shasum) && (await checkIntegrity(hit, integrity, shasum)).ok) {
        return { bytes: hit, integrity: integrity ?? (await sha512Integrity(hit)), fromCache: true };
      }
    }
    const target = this.rewriteHost(url);
    const bytes = await this.request(target, '*/*', this.config.registry);
    const check = await checkIntegrity(bytes, integrity, shasum);
    if (!check.ok) {
      throw new NpmError('EINTEGRITY', [
        'code EINTEGRITY',
        `${check.wanted} integrity checksum failed when using ${check.algorithm}: wanted ${check.wanted} but got ${check.got}. (${bytes.length} bytes)`,
        `The download of ${label} from ${target} is damaged or was changed; nothing was installed.`,
      ]);
    }
    const recorded = integrity || (await sha512Integrity(bytes));
    await cache?.put(integrity || url, bytes).catch(() => {});
    return { bytes, integrity: recorded, fromCache: false };
  }

  /** npm's `replace-registry-host=npmjs`: tarballs of the public registry come from the configured one. */
  private rewriteHost(url: string): string {
    if (url.startsWith(DEFAULT_REGISTRY) && this.config.registry !== DEFAULT_REGISTRY) {
      return this.config.registry + url.slice(DEFAULT_REGISTRY.length);
    }
    return url;
  }

  private async slot<T>(run: () => Promise<T>): Promise<T> {
    while (this.active >= FETCH_CONCURRENCY) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await run();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** GET with retries; resolves with the body, or throws RegistryStatusError / NpmError. */
  private request(url: string, accept: string, registry: string): Promise<Uint8Array> {
    return this.slot(async () => {
      const signal = this.host.signal;
      if (!this.host.fetch) {
        throw registryUnreachable(this.command, registry, url, 'this sandbox has no network access');
      }
      let lastReason = '';
      for (let attempt = 0; attempt <= FETCH_RETRIES; attempt++) {
        checkAbort(signal);
        if (attempt > 0) {
          await sleep(FETCH_RETRY_DELAY_MS * attempt, signal);
          checkAbort(signal);
        }
        const timeout = new AbortController();
        const timer = setTimeout(() => timeout.abort(), FETCH_TIMEOUT_MS);
        const onAbort = () => timeout.abort();
        signal?.addEventListener('abort', onAbort);
        try {
          const res = await this.host.fetch(url, { headers: { Accept: accept }, signal: timeout.signal });
          if (res.ok) return new Uint8Array(await res.arrayBuffer());
          // Drain the body so the connection can be reused.
          await res.arrayBuffer().catch(() => undefined);
          if (res.status >= 500 || res.status === 429) {
            lastReason = `${res.status} ${res.statusText || STATUS_TEXT[res.status] || ''}`.trim();
            if (attempt < FETCH_RETRIES) continue;
          }
          throw new RegistryStatusError(res.status, res.statusText || STATUS_TEXT[res.status] || '', url);
        } catch (err) {
          if (err instanceof RegistryStatusError) throw err;
          if (signal?.aborted) throw new NpmAbortError();
          lastReason = timeout.signal.aborted
            ? `no answer after ${FETCH_TIMEOUT_MS / 1000} s`
            : describeNetworkError(err);
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
      }
      throw registryUnreachable(this.command, registry, url, lastReason);
    });
  }
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${err.message} (${detail})` : err.message;
}
