/** The loopback registry itself (e2e/registry/server.ts): what tests and the browser rely on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, startRegistry } from '../../../e2e/registry/server.ts';
import { fixturePackages, startFixtureRegistry } from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.stop());

const ABBREVIATED = 'application/vnd.npm.install-v1+json';

describe('loopback registry', () => {
  it('serves abbreviated and full packuments, with CORS and CORP headers', async () => {
    const short = await fetch(`${registry.url}greet`, { headers: { Accept: ABBREVIATED } });
    expect(short.status).toBe(200);
    expect(short.headers.get('content-type')).toBe(ABBREVIATED);
    expect(short.headers.get('access-control-allow-origin')).toBe('*');
    expect(short.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const doc = await short.json();
    expect(doc['dist-tags']).toEqual({ latest: '1.0.0' });
    expect(Object.keys(doc.versions['1.0.0']).sort()).toEqual([
      'dependencies',
      'dist',
      'license',
      'name',
      'version',
    ]);
    const full = await (await fetch(`${registry.url}greet`)).json();
    expect(full.versions['1.0.0'].description).toContain('Greets someone');
    expect(full.versions['1.0.0']._id).toBe('greet@1.0.0');
    expect(full.time['1.0.0']).toBeDefined();
  });

  it('latest is the highest release; other tags as set; install scripts flagged', async () => {
    const doc = await (await fetch(`${registry.url}tiny-math`, { headers: { Accept: ABBREVIATED } })).json();
    expect(doc['dist-tags']).toEqual({ latest: '2.0.0', next: '2.1.0-beta.1' });
    const scripted = await (
      await fetch(`${registry.url}install-script`, { headers: { Accept: ABBREVIATED } })
    ).json();
    expect(scripted.versions['1.0.0'].hasInstallScript).toBe(true);
  });

  it('serves scoped packages at /@scope%2fname and /@scope/name, and tarballs byte for byte', async () => {
    const a = await (await fetch(`${registry.url}@fixtures%2fscoped-util`)).json();
    const b = await (await fetch(`${registry.url}@fixtures/scoped-util`)).json();
    expect(a).toEqual(b);
    const url = a.versions['1.0.0'].dist.tarball;
    expect(url).toBe(registry.tarballUrl('@fixtures/scoped-util', '1.0.0'));
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const packed = (await fixturePackages()).find((p) => p.name === '@fixtures/scoped-util')!;
    expect(bytes).toEqual(packed.tarball);
  });

  it('answers preflights and 404s, records requests, and fails on request', async () => {
    registry.clearRequests();
    const pre = await fetch(`${registry.url}greet`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toBe('*');
    expect((await fetch(`${registry.url}nope`)).status).toBe(404);
    expect((await fetch(`${registry.url}greet/-/greet-9.9.9.tgz`)).status).toBe(404);
    expect(registry.requests.map((r) => [r.method, r.path, r.kind])).toEqual([
      ['OPTIONS', '/greet', 'preflight'],
      ['GET', '/nope', 'packument'],
      ['GET', '/greet/-/greet-9.9.9.tgz', 'tarball'],
    ]);
    registry.fail({ path: '/greet', kind: 'server-error', times: 1 });
    registry.fail({ path: /greet-1\.0\.0\.tgz$/, kind: 'corrupt' });
    try {
      expect((await fetch(`${registry.url}greet`)).status).toBe(500);
      expect((await fetch(`${registry.url}greet`)).status).toBe(200);
      const packed = (await fixturePackages()).find((p) => p.name === 'greet')!;
      const corrupt = new Uint8Array(
        await (await fetch(registry.tarballUrl('greet', '1.0.0'))).arrayBuffer(),
      );
      expect(corrupt.length).toBe(packed.tarball.length);
      expect(corrupt).not.toEqual(packed.tarball);
      registry.fail({ path: '/multi-bin', kind: 'drop' });
      await expect(fetch(`${registry.url}multi-bin`)).rejects.toThrow();
    } finally {
      registry.clearFailures();
    }
  });

  it('stops cleanly even with a request left hanging, and listens on a given port', async () => {
    const other = await startRegistry({ packages: await fixturePackages() });
    other.fail({ path: '/greet', kind: 'hang' });
    const hanging = fetch(`${other.url}greet`).then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 20));
    await other.stop();
    expect(await hanging).toBe('closed');
    await expect(fetch(`${other.url}greet`)).rejects.toThrow();
    const fixed = await startRegistry({ packages: [], port: other.port });
    try {
      expect(fixed.url).toBe(other.url);
      expect((await fetch(`${fixed.url}greet`)).status).toBe(404);
    } finally {
      await fixed.stop();
    }
  });
});
