/**
 * The Chromium half of bench/node.ts: the just-bash sandbox's `node` in a real page (served without
 * COOP/COEP). `?phase=cold` — a fresh page: the first `node` (worker start, engine load, the demo run),
 * then warm runs; `?phase=cpu` — a CPU-bound script on tabcode's node vs the same code in a plain Worker
 * on the browser's own engine; `?phase=stop` — how long a runaway takes to stop after its abort.
 * Results go to `window.benchResult`.
 */
import { DEMO_PROJECT } from '../../src/sandbox/demo-project.ts';
import { createJustBashSandbox } from '../../src/sandbox/just-bash.ts';

declare global {
  interface Window {
    benchResult?: Record<string, number | string>;
  }
}

const params = new URLSearchParams(location.search);

/** Sieve of Eratosthenes and a little string work: the same code on both engines. */
const CPU_SCRIPT = `function work() {
  const n = 2_000_000;
  const sieve = new Uint8Array(n + 1);
  let count = 0;
  for (let i = 2; i <= n; i++) {
    if (sieve[i]) continue;
    count++;
    for (let j = i * i; j <= n; j += i) sieve[j] = 1;
  }
  let s = '';
  for (let i = 0; i < 20000; i++) s += i.toString(36);
  const words = {};
  for (const ch of s) words[ch] = (words[ch] || 0) + 1;
  return count + Object.keys(words).length;
}`;

async function cold(): Promise<Record<string, number>> {
  const sandbox = await createJustBashSandbox({ files: { ...DEMO_PROJECT } });
  const t0 = performance.now();
  const first = await sandbox.exec('node src/index.js');
  const t1 = performance.now();
  if (!first.stdout.includes('Lisbon')) throw new Error(`unexpected output: ${first.stdout}${first.stderr}`);
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await sandbox.exec('node src/index.js');
    warm.push(performance.now() - s);
  }
  const s = performance.now();
  const echo = await sandbox.exec('echo hi');
  const echoMs = performance.now() - s;
  if (echo.stdout !== 'hi\n') throw new Error('echo failed');
  const t = performance.now();
  const test = await sandbox.exec('npm test');
  const npmTestMs = performance.now() - t;
  if (test.exitCode !== 0) throw new Error(`npm test failed: ${test.stdout}${test.stderr}`);
  await sandbox.dispose();
  warm.sort((a, b) => a - b);
  return { coldMs: t1 - t0, warmMs: warm[2], echoMs, npmTestMs };
}

async function cpu(): Promise<Record<string, number>> {
  const sandbox = await createJustBashSandbox({
    files: { 'cpu.js': `${CPU_SCRIPT}\nconsole.log(work());\n`, 'noop.js': '' },
  });
  await sandbox.exec('node noop.js');
  const times: number[] = [];
  let answer = '';
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    const r = await sandbox.exec('node cpu.js');
    times.push(performance.now() - s);
    answer = r.stdout.trim();
  }
  const noop: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    await sandbox.exec('node noop.js');
    noop.push(performance.now() - s);
  }
  await sandbox.dispose();
  const source = `${CPU_SCRIPT}\nself.onmessage = () => { const t = performance.now(); const v = work(); self.postMessage({ v, ms: performance.now() - t }); };`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  const native: number[] = [];
  let nativeAnswer = '';
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    const { v } = await new Promise<{ v: number }>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.postMessage(0);
    });
    native.push(performance.now() - s);
    nativeAnswer = String(v);
  }
  worker.terminate();
  if (answer !== nativeAnswer) throw new Error(`different answers: ${answer} vs ${nativeAnswer}`);
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[1];
  return { quickjsMs: med(times), quickjsNoopMs: med(noop), nativeMs: med(native) };
}

async function stop(): Promise<Record<string, number>> {
  const sandbox = await createJustBashSandbox({
    files: { 'spin.js': "console.log('spinning'); for (;;) {}" },
  });
  await sandbox.exec('node -e 0');
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const controller = new AbortController();
    let printed: () => void = () => {};
    const spinning = new Promise<void>((r) => {
      printed = r;
    });
    const started = sandbox.exec('node spin.js', {
      signal: controller.signal,
      onOutput: (t) => t.includes('spinning') && printed(),
    });
    // Abort once the program is surely in its loop (it printed, then spins).
    await spinning;
    await new Promise((r) => setTimeout(r, 100));
    const s = performance.now();
    controller.abort();
    const r = await started;
    latencies.push(performance.now() - s);
    if (!r.stdout.includes('spinning') || r.exitCode !== 130)
      throw new Error(`unexpected: ${JSON.stringify(r)}`);
  }
  await sandbox.dispose();
  latencies.sort((a, b) => a - b);
  return { stopMedianMs: latencies[2], stopMaxMs: latencies[4] };
}

const phases: Record<string, () => Promise<Record<string, number>>> = { cold, cpu, stop };
(phases[params.get('phase') ?? 'cold'] ?? cold)()
  .then((r) => {
    window.benchResult = r;
  })
  .catch((err: unknown) => {
    window.benchResult = { error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) };
  });
