/**
 * Booting once per page: the shared instance, the time limit, the unreachable-runtime probe, the boot
 * options (coep from the page, preview errors forwarded) and teardown after the last user lets go.
 * `WebContainer.boot` is replaced by a controllable stand-in; timers are fake.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const boot = vi.fn();
const teardown = vi.fn();

vi.mock('@webcontainer/api', () => ({ WebContainer: { boot: (...args: unknown[]) => boot(...args) } }));

const { acquireWebContainer } = await import('./webcontainer-boot.ts');

const SLOT = Symbol.for('tabcode.webcontainer');
const g = globalThis as Record<string | symbol, unknown>;

function instance() {
  return { workdir: '/home/project', teardown };
}

beforeEach(() => {
  vi.useFakeTimers();
  delete g[SLOT];
  g.crossOriginIsolated = true;
  boot.mockReset();
  teardown.mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('')),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete g.crossOriginIsolated;
});

describe('acquireWebContainer', () => {
  it('boots once with the page COEP and preview errors forwarded, shares the instance, tears down after the last release', async () => {
    const wc = instance();
    boot.mockResolvedValue(wc);
    const a = await acquireWebContainer({ timeoutMs: 10_000, workdirName: 'project' });
    const b = await acquireWebContainer({ timeoutMs: 10_000, workdirName: 'project' });
    expect(a.wc).toBe(wc);
    expect(b.wc).toBe(wc);
    expect(boot).toHaveBeenCalledTimes(1);
    expect(boot).toHaveBeenCalledWith({
      coep: 'require-corp',
      workdirName: 'project',
      forwardPreviewErrors: true,
    });
    a.release();
    a.release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(teardown).not.toHaveBeenCalled();
    b.release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(teardown).toHaveBeenCalledTimes(1);
  });

  it('keeps the instance across a release and a quick re-acquire (StrictMode remount, HMR)', async () => {
    boot.mockResolvedValue(instance());
    const first = await acquireWebContainer({ timeoutMs: 10_000 });
    first.release();
    await vi.advanceTimersByTimeAsync(500);
    const second = await acquireWebContainer({ timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(teardown).not.toHaveBeenCalled();
    expect(boot).toHaveBeenCalledTimes(1);
    second.release();
  });

  it('gives up at the time limit; a boot that finishes later is torn down', async () => {
    let finish: (wc: unknown) => void = () => undefined;
    boot.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const waiting = acquireWebContainer({ timeoutMs: 5_000 });
    const failed = expect(waiting).rejects.toMatchObject({
      kind: 'timeout',
      message: 'it did not boot within 5 s',
    });
    await vi.advanceTimersByTimeAsync(5_000);
    await failed;
    finish(instance());
    await vi.advanceTimersByTimeAsync(5_000);
    expect(teardown).toHaveBeenCalledTimes(1);
  });

  it("falls back soon after StackBlitz's runtime cannot be fetched, not at the time limit", async () => {
    boot.mockReturnValue(new Promise(() => undefined));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const waiting = acquireWebContainer({ timeoutMs: 60_000, probeGraceMs: 3_000 });
    const failed = expect(waiting).rejects.toMatchObject({
      kind: 'unreachable',
      message: "StackBlitz's WebContainer runtime (https://stackblitz.com) cannot be reached",
    });
    await vi.advanceTimersByTimeAsync(3_100);
    await failed;
  });

  it('a reachable runtime does not cut the wait short', async () => {
    let finish: (wc: unknown) => void = () => undefined;
    boot.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const waiting = acquireWebContainer({ timeoutMs: 60_000, probeGraceMs: 3_000 });
    await vi.advanceTimersByTimeAsync(20_000);
    const wc = instance();
    finish(wc);
    await expect(waiting).resolves.toMatchObject({ wc });
  });

  it('reports a boot that throws, and boots again next time', async () => {
    boot.mockRejectedValueOnce(new Error('Only a single WebContainer instance can be booted'));
    await expect(acquireWebContainer({ timeoutMs: 5_000 })).rejects.toMatchObject({
      kind: 'failed',
      message: 'it failed to boot: Only a single WebContainer instance can be booted',
    });
    boot.mockResolvedValue(instance());
    await expect(acquireWebContainer({ timeoutMs: 5_000 })).resolves.toBeDefined();
    expect(boot).toHaveBeenCalledTimes(2);
  });
});
