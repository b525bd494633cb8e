/**
 * The page half of bench/long-tasks.ts: the round trip of one file operation on the just-bash sandbox
 * through its worker (createWorkerSandbox, as the app runs it) and on the page's thread
 * (createJustBashSandbox), the same operations on the same small file; and the longest main-thread
 * task while one heavy command runs on each. Results go to `window.benchResult`.
 */
import type { Sandbox } from '../../src/sandbox/sandbox.ts';

declare global {
  interface Window {
    benchResult?: Record<string, number | string>;
  }
}

/** Operations timed per kind (after a warm-up of a tenth as many). */
const OPS = 300;
/** A command that keeps the shell busy for a while (loops, substitutions, redirections, a pipe). */
const HEAVY =
  'for i in $(seq 1 3000); do echo "line $i $((i * 7 % 13))" >> heavy.txt; done; sort heavy.txt | uniq | wc -l';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function timeOps(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < OPS / 10; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < OPS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return median(times);
}

const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

async function measure(label: string, sandbox: Sandbox): Promise<Record<string, number>> {
  const file = 'bench-one.txt';
  await sandbox.writeFile(file, 'one small file\n');
  const readFile = await timeOps(() => sandbox.readFile(file));
  const writeFile = await timeOps(() => sandbox.writeFile(file, 'one small file, again\n'));
  const stat = await timeOps(() => sandbox.stat(file));
  const exec = await timeOps(() => sandbox.exec('true'));
  // Let the tasks of the timing loops settle, then run the heavy command alone.
  await new Promise((r) => setTimeout(r, 200));
  const from = performance.now();
  const result = await sandbox.exec(HEAVY);
  const heavyMs = performance.now() - from;
  await new Promise((r) => setTimeout(r, 100));
  if (result.exitCode !== 0 || result.stdout.trim() !== '3000')
    throw new Error(`${label}: ${result.stdout}${result.stderr}`);
  const during = longTasks.filter((t) => t.start >= from);
  return {
    [`${label}.readFile`]: readFile,
    [`${label}.writeFile`]: writeFile,
    [`${label}.stat`]: stat,
    [`${label}.exec`]: exec,
    [`${label}.heavyMs`]: heavyMs,
    [`${label}.heavyLongTasks`]: during.length,
    [`${label}.heavyLongest`]: Math.max(0, ...during.map((t) => t.duration)),
  };
}

async function main(): Promise<Record<string, number>> {
  const { createWorkerSandbox } = await import('../../src/sandbox/worker-sandbox.ts');
  const { createJustBashSandbox } = await import('../../src/sandbox/just-bash.ts');
  const files = { 'README.md': '# bench\n' };
  const worker = await createWorkerSandbox({ files });
  const inWorker = await measure('worker', worker);
  await worker.dispose();
  const direct = await createJustBashSandbox({ files });
  const onPage = await measure('main', direct);
  await direct.dispose();
  return { ...inWorker, ...onPage };
}

main().then(
  (result) => {
    window.benchResult = result;
  },
  (err: unknown) => {
    window.benchResult = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  },
);
