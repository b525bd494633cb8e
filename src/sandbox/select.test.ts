/**
 * Choosing the sandbox: URL over setting over default, the fallbacks and their reasons, the saved
 * project restored into whichever backend runs.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEMO_PROJECT } from './demo-project.ts';
import { idbProjectStore } from './persist.ts';
import {
  openSandbox,
  readSandboxPreference,
  sandboxHost,
  sandboxSettingKey,
  saveSandboxPreference,
  WEBCONTAINER_EXPLICIT_TIMEOUT_MS,
} from './select.ts';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import {
  type AcquiredWebContainer,
  acquireWebContainer,
  BootError,
  type BootRequest,
} from './webcontainer-boot.ts';

let seq = 0;
const store = () => idbProjectStore(`tabcode-select-test-${++seq}`);

function fakeAcquire() {
  const wc = new FakeWebContainer();
  const release = vi.fn();
  const requests: BootRequest[] = [];
  const acquire = async (request: BootRequest): Promise<AcquiredWebContainer> => {
    requests.push(request);
    return { wc, release };
  };
  return { wc, release, requests, acquire };
}

describe('sandbox preference', () => {
  it('takes ?sandbox= over the setting over auto, and ignores unknown values', () => {
    const storage = { getItem: (k: string) => (k === sandboxSettingKey() ? 'just-bash' : null) };
    expect(readSandboxPreference('?sandbox=webcontainer', storage)).toEqual({
      preference: 'webcontainer',
      source: 'url',
    });
    expect(readSandboxPreference('?sandbox=bogus', storage)).toEqual({
      preference: 'just-bash',
      source: 'setting',
    });
    expect(readSandboxPreference('', { getItem: () => null })).toEqual({
      preference: 'auto',
      source: 'default',
    });
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readSandboxPreference('', blocked)).toEqual({ preference: 'auto', source: 'default' });
  });

  it('saves the setting, and says when storage refuses', () => {
    const saved: Record<string, string> = {};
    expect(saveSandboxPreference('webcontainer', { setItem: (k, v) => (saved[k] = v) })).toBe(true);
    expect(saved[sandboxSettingKey()]).toBe('webcontainer');
    const refusing = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(saveSandboxPreference('auto', refusing)).toBe(false);
  });
});

describe('openSandbox', () => {
  it('just-bash when asked, with the demo project and no WebContainer boot', async () => {
    const { acquire, requests } = fakeAcquire();
    const opened = await openSandbox({ preference: 'just-bash', store: null, acquire, isolated: true });
    expect(opened.sandbox.kind).toBe('just-bash');
    expect(opened.selection).toMatchObject({ kind: 'just-bash', requested: 'just-bash', fellBack: false });
    expect(opened.selection.reason).toContain('just-bash was chosen');
    expect(opened.sandbox.info().reason).toBe(opened.selection.reason);
    expect(await opened.sandbox.readFile('README.md')).toBe(DEMO_PROJECT['README.md']);
    expect(requests).toEqual([]);
    expect(opened.persistence).toBeUndefined();
    await opened.close();
  });

  it('auto is just-bash at once, isolated or not: nothing waits for a WebContainer', async () => {
    for (const isolated of [false, true]) {
      const { acquire, requests } = fakeAcquire();
      const opened = await openSandbox({ preference: 'auto', store: null, acquire, isolated });
      expect(opened.selection).toMatchObject({ kind: 'just-bash', requested: 'auto', fellBack: false });
      expect(opened.selection.reason).toContain('ready at once');
      expect(opened.selection.reason).toContain('Node.js');
      expect(requests).toEqual([]);
      await opened.close();
    }
  });

  it('webcontainer on a page that is not cross-origin isolated: just-bash, saying why', async () => {
    const { acquire, requests } = fakeAcquire();
    const opened = await openSandbox({ preference: 'webcontainer', store: null, acquire, isolated: false });
    expect(opened.selection).toMatchObject({ kind: 'just-bash', requested: 'webcontainer', fellBack: true });
    expect(opened.selection.reason).toContain('not cross-origin isolated');
    expect(opened.selection.reason).toContain('Using just-bash');
    expect(requests).toEqual([]);
    await opened.close();
  });

  it('webcontainer when it cannot boot: just-bash with the boot error as the reason', async () => {
    const acquire = async () => {
      throw new BootError(
        'unreachable',
        "StackBlitz's WebContainer runtime (https://stackblitz.com) cannot be reached",
      );
    };
    const opened = await openSandbox({ preference: 'webcontainer', store: null, acquire, isolated: true });
    expect(opened.sandbox.kind).toBe('just-bash');
    expect(opened.selection.reason).toBe(
      "WebContainer unavailable: StackBlitz's WebContainer runtime (https://stackblitz.com) cannot be reached. Using just-bash instead (a simulated bash with Node.js in a worker)",
    );
    await opened.close();
  });

  it('boots the WebContainer when asked for, and lets go of it on close', async () => {
    const fake = fakeAcquire();
    const opened = await openSandbox({
      preference: 'webcontainer',
      store: null,
      acquire: fake.acquire,
      isolated: true,
    });
    expect(opened.sandbox.kind).toBe('webcontainer');
    expect(opened.selection).toMatchObject({ kind: 'webcontainer', fellBack: false });
    expect(opened.selection.reason).toContain('WebContainer was chosen');
    expect(fake.requests[0]).toMatchObject({
      timeoutMs: WEBCONTAINER_EXPLICIT_TIMEOUT_MS,
      workdirName: 'project',
    });
    expect(await opened.sandbox.readFile('src/stats.js')).toBe(DEMO_PROJECT['src/stats.js']);
    await opened.close();
    expect(fake.release).toHaveBeenCalledTimes(1);
  });

  it('a WebContainer that boots but cannot take the files falls back too, and is let go', async () => {
    const fake = fakeAcquire();
    fake.wc.mount = async () => {
      throw new Error('mount failed: out of memory');
    };
    const opened = await openSandbox({
      preference: 'webcontainer',
      store: null,
      acquire: fake.acquire,
      isolated: true,
    });
    expect(opened.sandbox.kind).toBe('just-bash');
    expect(opened.selection.reason).toContain('it failed to start: mount failed: out of memory');
    expect(fake.release).toHaveBeenCalledTimes(1);
    await opened.close();
  });

  it('restores the saved project into either backend and keeps saving it', async () => {
    const s = store();
    const first = await openSandbox({ preference: 'just-bash', store: s });
    expect(first.restored).toBe(false);
    await first.sandbox.writeFile('notes.md', '# kept\n');
    await first.sandbox.rm('README.md');
    await first.close();

    const fake = fakeAcquire();
    const second = await openSandbox({
      preference: 'webcontainer',
      store: s,
      acquire: fake.acquire,
      isolated: true,
    });
    expect(second.restored).toBe(true);
    expect(second.sandbox.kind).toBe('webcontainer');
    expect(await second.sandbox.readFile('notes.md')).toBe('# kept\n');
    expect(await second.sandbox.exists('README.md')).toBe(false);
    expect(sandboxHost(second.sandbox)).toBe(second);
    await second.sandbox.writeFile('more.md', 'more\n');
    await second.close();

    const third = await openSandbox({ preference: 'just-bash', store: s });
    expect(await third.sandbox.readFile('more.md')).toBe('more\n');
    await third.persistence?.resetProject();
    await third.close();
    const fourth = await openSandbox({ preference: 'just-bash', store: s });
    expect(await fourth.sandbox.exists('more.md')).toBe(false);
    expect(await fourth.sandbox.readFile('README.md')).toBe(DEMO_PROJECT['README.md']);
    await fourth.close();
  });
});

describe('acquireWebContainer', () => {
  it('refuses at once on a page that is not cross-origin isolated', async () => {
    expect(globalThis.crossOriginIsolated).toBeUndefined();
    const started = Date.now();
    await expect(acquireWebContainer({ timeoutMs: 60_000 })).rejects.toMatchObject({ kind: 'not-isolated' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
