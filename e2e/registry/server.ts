/**
 * A loopback npm registry for tests (vitest in-process, Playwright from the browser).
 *
 * Routes, as the public registry has them:
 * - `GET /<name>` (and `/@scope%2fname`, `/@scope/name`): the packument. With
 *   `Accept: application/vnd.npm.install-v1+json` the abbreviated ("corgi") document, else the full one.
 * - `GET /<name>/-/<basename>-<version>.tgz`: a tarball.
 * - `OPTIONS *`: CORS preflight (204).
 * Every answer carries `Access-Control-Allow-Origin: *` and `Cross-Origin-Resource-Policy: cross-origin`
 * (the page fetching it is cross-origin isolated). Every request is recorded. Rules make chosen paths
 * fail (404, 500, a corrupt tarball, a dropped connection, no answer at all). `stop()` closes every
 * connection and resolves when the port is free.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import semver from 'semver';
import type { PackedPackage } from './pack.ts';

export type { PackedPackage } from './pack.ts';

/** How a request matched by a rule fails. */
export type FailureKind =
  /** 404 with npm's JSON body. */
  | 'not-found'
  /** 500 Internal Server Error. */
  | 'server-error'
  /** The tarball with some bytes changed (same length): an integrity mismatch. */
  | 'corrupt'
  /** The connection is destroyed without an answer. */
  | 'drop'
  /** No answer until the client gives up or the registry stops. */
  | 'hang';

export interface FailureRule {
  /** The decoded request path (`/tiny-math`, `/tiny-math/-/tiny-math-1.0.0.tgz`) or a pattern for it. */
  path: string | RegExp;
  kind: FailureKind;
  /** Fail only this many times, then serve normally (default: always). */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  /** The decoded path, without the query. */
  path: string;
  accept: string;
  /** `packument`, `tarball`, `preflight` or `other`. */
  kind: 'packument' | 'tarball' | 'preflight' | 'other';
}

export interface RegistryOptions {
  packages: PackedPackage[];
  /** Default: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface LocalRegistry {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  readonly port: number;
  /** Requests received, oldest first. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /** Adds a failure rule (rules are checked in the order added). */
  fail(rule: FailureRule): void;
  clearFailures(): void;
  /** Adds (or replaces) a package version. */
  publish(pkg: PackedPackage): void;
  /**
   * Publishes raw tarball bytes under `name@version` with a computed integrity, e.g. a hostile tarball.
   * `manifest` defaults to `{ name, version }`.
   */
  publishRaw(name: string, version: string, tarball: Uint8Array, manifest?: Record<string, unknown>): void;
  /** Points a dist-tag at a version (`latest` defaults to the highest release). */
  setDistTag(name: string, tag: string, version: string): void;
  /** Marks a version deprecated, as `npm deprecate` does. */
  deprecate(name: string, version: string, message: string): void;
  /** The URL the registry serves `name@version`'s tarball at. */
  tarballUrl(name: string, version: string): string;
  stop(): Promise<void>;
}

const ABBREVIATED = 'application/vnd.npm.install-v1+json';
/** Manifest fields the abbreviated packument keeps (the registry's own list). */
const ABBREVIATED_FIELDS = [
  'name',
  'version',
  'deprecated',
  'dependencies',
  'optionalDependencies',
  'devDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bin',
  'directories',
  'engines',
  'os',
  'cpu',
  'funding',
  'license',
  '_hasShrinkwrap',
];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];
/** A fixed publication time, so documents are byte-stable between runs. */
const PUBLISHED = '2024-01-01T00:00:00.000Z';

interface Version {
  manifest: Record<string, unknown>;
  tarball: Uint8Array;
  integrity: string;
  shasum: string;
  deprecated?: string;
}

interface PackageEntry {
  versions: Map<string, Version>;
  tags: Map<string, string>;
}

const baseHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/** `@scope/name` → `name` (the tarball's file name prefix). */
const basename = (name: string) => name.slice(name.lastIndexOf('/') + 1);

function corrupt(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes);
  // Change bytes in the middle of the compressed data (not the gzip header), keeping the length.
  for (let i = Math.floor(copy.length / 2); i < Math.min(copy.length, Math.floor(copy.length / 2) + 8); i++) {
    copy[i] ^= 0xff;
  }
  return copy;
}

/** Starts the registry; resolves once it listens. */
export async function startRegistry(options: RegistryOptions): Promise<LocalRegistry> {
  const packages = new Map<string, PackageEntry>();
  const requests: RecordedRequest[] = [];
  const rules: { rule: FailureRule; left: number }[] = [];
  const sockets = new Set<Socket>();
  let url = '';

  const entryFor = (name: string): PackageEntry => {
    let entry = packages.get(name);
    if (!entry) {
      entry = { versions: new Map(), tags: new Map() };
      packages.set(name, entry);
    }
    return entry;
  };
  const add = (name: string, version: string, v: Version) => entryFor(name).versions.set(version, v);
  for (const pkg of options.packages) {
    add(pkg.name, pkg.version, {
      manifest: pkg.manifest,
      tarball: pkg.tarball,
      integrity: pkg.integrity,
      shasum: pkg.shasum,
    });
  }

  const tarballUrl = (name: string, version: string) => `${url}${name}/-/${basename(name)}-${version}.tgz`;

  const distTags = (entry: PackageEntry): Record<string, string> => {
    const releases = [...entry.versions.keys()].filter((v) => !semver.prerelease(v));
    const latest = semver.rsort(releases.length ? releases : [...entry.versions.keys()])[0];
    return { latest, ...Object.fromEntries(entry.tags) };
  };

  const packument = (name: string, entry: PackageEntry, abbreviated: boolean) => {
    const versions: Record<string, unknown> = {};
    for (const version of semver.sort([...entry.versions.keys()])) {
      const v = entry.versions.get(version)!;
      const full: Record<string, unknown> = {
        ...v.manifest,
        name,
        version,
        _id: `${name}@${version}`,
        dist: { tarball: tarballUrl(name, version), integrity: v.integrity, shasum: v.shasum },
      };
      if (v.deprecated) full.deprecated = v.deprecated;
      if (!abbreviated) {
        versions[version] = full;
        continue;
      }
      const short: Record<string, unknown> = {};
      for (const field of ABBREVIATED_FIELDS) if (full[field] !== undefined) short[field] = full[field];
      const scripts = (v.manifest.scripts ?? {}) as Record<string, unknown>;
      if (INSTALL_SCRIPTS.some((s) => typeof scripts[s] === 'string')) short.hasInstallScript = true;
      short.dist = full.dist;
      versions[version] = short;
    }
    const tags = distTags(entry);
    if (abbreviated) return { name, modified: PUBLISHED, 'dist-tags': tags, versions };
    const time: Record<string, string> = { created: PUBLISHED, modified: PUBLISHED };
    for (const version of Object.keys(versions)) time[version] = PUBLISHED;
    return { _id: name, name, 'dist-tags': tags, versions, time };
  };

  const send = (res: ServerResponse, status: number, body: string | Uint8Array, type: string) => {
    res.writeHead(status, { ...baseHeaders, 'Content-Type': type, 'Content-Length': String(body.length) });
    res.end(body);
  };
  const notFound = (res: ServerResponse) => send(res, 404, '{"error":"Not found"}', 'application/json');

  const matchRule = (path: string): FailureKind | undefined => {
    for (const r of rules) {
      const hit = typeof r.rule.path === 'string' ? r.rule.path === path : r.rule.path.test(path);
      if (!hit || r.left === 0) continue;
      r.left--;
      return r.rule.kind;
    }
    return undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const raw = (req.url ?? '/').split('?')[0];
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      path = raw;
    }
    const tarball = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    const kind: RecordedRequest['kind'] =
      req.method === 'OPTIONS' ? 'preflight' : tarball ? 'tarball' : path.length > 1 ? 'packument' : 'other';
    requests.push({ method: req.method ?? 'GET', path, accept: String(req.headers.accept ?? ''), kind });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...baseHeaders, 'Access-Control-Max-Age': '600' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, '{"error":"Method not allowed"}', 'application/json');
      return;
    }
    const failure = matchRule(path);
    if (failure === 'drop') {
      req.socket.destroy();
      return;
    }
    if (failure === 'hang') return;
    if (failure === 'not-found') return notFound(res);
    if (failure === 'server-error') {
      send(res, 500, '{"error":"Internal Server Error"}', 'application/json');
      return;
    }
    if (tarball) {
      const [, name, file] = tarball;
      const entry = packages.get(name);
      const prefix = `${basename(name)}-`;
      const version = file.startsWith(prefix) ? file.slice(prefix.length, -'.tgz'.length) : '';
      const v = entry?.versions.get(version);
      if (!v) return notFound(res);
      send(res, 200, failure === 'corrupt' ? corrupt(v.tarball) : v.tarball, 'application/octet-stream');
      return;
    }
    const entry = packages.get(path.slice(1));
    if (!entry || entry.versions.size === 0) return notFound(res);
    const abbreviated = String(req.headers.accept ?? '').includes(ABBREVIATED);
    const doc = JSON.stringify(packument(path.slice(1), entry, abbreviated));
    send(res, 200, doc, abbreviated ? ABBREVIATED : 'application/json');
  };

  const server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? '127.0.0.1'}:${address.port}/`;

  return {
    url,
    port: address.port,
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    fail: (rule) => {
      rules.push({ rule, left: rule.times ?? -1 });
    },
    clearFailures: () => {
      rules.length = 0;
    },
    publish: (pkg) =>
      add(pkg.name, pkg.version, {
        manifest: pkg.manifest,
        tarball: pkg.tarball,
        integrity: pkg.integrity,
        shasum: pkg.shasum,
      }),
    publishRaw: (name, version, bytes, manifest) =>
      add(name, version, {
        manifest: manifest ?? { name, version },
        tarball: bytes,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      }),
    setDistTag: (name, tag, version) => {
      entryFor(name).tags.set(tag, version);
    },
    deprecate: (name, version, message) => {
      const v = packages.get(name)?.versions.get(version);
      if (!v) throw new Error(`deprecate: ${name}@${version} is not published`);
      v.deprecated = message;
    },
    tarballUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
