/**
 * The Chromium half of bench/python.ts: the just-bash sandbox's `python3` in a real page (served
 * without COOP/COEP). `?phase=cold` — a fresh page: the first `python3` on a CSV (worker start,
 * Pyodide load, the run), then the same run warm, and a command that does nothing; `?phase=stop` — a
 * runaway loop stopped by its abort, and the next run (a new worker). Results go to `window.benchResult`.
 */
import { createJustBashSandbox } from '../../src/sandbox/just-bash.ts';

declare global {
  interface Window {
    benchResult?: Record<string, number | string>;
  }
}

const params = new URLSearchParams(location.search);

/** A CSV of 2,000 rows and a script that totals it by region with the csv module. */
function csvProject(): Record<string, string> {
  const regions = ['north', 'south', 'east', 'west'];
  const rows = ['region,product,amount'];
  for (let i = 0; i < 2000; i++) rows.push(`${regions[i % 4]},item-${i % 17},${(i % 97) + 0.5}`);
  return {
    'sales.csv': `${rows.join('\n')}\n`,
    'summarize.py': [
      'import csv, sys',
      'from collections import defaultdict',
      'totals = defaultdict(float)',
      'with open(sys.argv[1], newline="") as f:',
      '    for row in csv.DictReader(f):',
      '        totals[row["region"]] += float(row["amount"])',
      'with open("summary.csv", "w", newline="") as f:',
      '    w = csv.writer(f)',
      '    for region in sorted(totals):',
      '        w.writerow([region, f"{totals[region]:.2f}"])',
      'print(len(totals), "regions")',
    ].join('\n'),
  };
}

async function cold(): Promise<Record<string, number>> {
  const sandbox = await createJustBashSandbox({ files: csvProject() });
  const t0 = performance.now();
  const first = await sandbox.exec('python3 summarize.py sales.csv');
  const coldMs = performance.now() - t0;
  if (first.stdout !== '4 regions\n') throw new Error(`unexpected output: ${first.stdout}${first.stderr}`);
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await sandbox.exec('python3 summarize.py sales.csv');
    warm.push(performance.now() - s);
  }
  const noop: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    await sandbox.exec('python3 -c pass');
    noop.push(performance.now() - s);
  }
  const check = await sandbox.exec('cat summary.csv | wc -l');
  if (check.stdout.trim() !== '4') throw new Error(`summary.csv: ${check.stdout}`);
  await sandbox.dispose();
  warm.sort((a, b) => a - b);
  noop.sort((a, b) => a - b);
  return { coldMs, warmMs: warm[2], noopMs: noop[2] };
}

async function stop(): Promise<Record<string, number>> {
  const sandbox = await createJustBashSandbox({ files: {} });
  await sandbox.exec('python3 -c pass');
  const controller = new AbortController();
  const running = sandbox.exec(`python3 -c "print('looping', flush=True)\nwhile True: pass"`, {
    signal: controller.signal,
  });
  await new Promise((r) => setTimeout(r, 500));
  const s = performance.now();
  controller.abort();
  const stopped = await running;
  const stopMs = performance.now() - s;
  const n = performance.now();
  const next = await sandbox.exec('python3 -c "print(1 + 1)"');
  const nextMs = performance.now() - n;
  if (next.stdout !== '2\n') throw new Error(`after the stop: ${next.stdout}${next.stderr}`);
  await sandbox.dispose();
  return { stopMs, nextMs, stoppedExit: stopped.exitCode };
}

(async () => {
  try {
    window.benchResult = params.get('phase') === 'stop' ? await stop() : await cold();
  } catch (err) {
    window.benchResult = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
})();
