/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, every client scenario)
 * against tabcode's MCP layer (client.ts), all scenarios at once in one suite run (a scenario that
 * fails there is run again alone, and the output says so), and checks the outcome against
 * the baseline of expected failures (expected-failures.yml, which must shrink to empty): a scenario
 * that fails and is not listed fails the run, and so does one that is listed but passes (stale entry).
 *
 *   tsx e2e/mcp/conformance/run.ts                 # every client scenario
 *   tsx e2e/mcp/conformance/run.ts --only auth/    # scenarios whose name contains "auth/"
 *   tsx e2e/mcp/conformance/run.ts --baseline      # also a minimal client on the bare SDK, same run
 *
 * The suite needs Node 22's fs.globSync: on Node 20 the CLI is started with the preload shim
 * (node20-shim.mjs). The package is found in node_modules, or in MCP_CONFORMANCE_DIR (its folder).
 * `npm test` runs it through src/mcp/conformance.test.ts (runConformance below).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runConformanceScenario } from './client.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const SHIM = join(HERE, 'node20-shim.mjs');
const BASELINE_FILE = join(HERE, 'expected-failures.yml');
/** Where the clients are bundled (inside node_modules, so their imports resolve from it). */
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'tabcode-conformance');
/** Per-scenario timeout given to the suite (ms). */
const SCENARIO_TIMEOUT_MS = 30_000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Where the suite is looked for, for messages. */
export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';

/**
 * The suite's CLI entry point: MCP_CONFORMANCE_DIR's, else the package in node_modules; undefined
 * when neither is there. Never throws.
 */
export function conformanceCli(): string | undefined {
  const dir = process.env.MCP_CONFORMANCE_DIR;
  if (dir) {
    const cli = join(dir, 'dist', 'index.js');
    return existsSync(cli) ? cli : undefined;
  }
  try {
    const require = createRequire(join(ROOT, 'package.json'));
    return join(dirname(require.resolve(`${CONFORMANCE_PACKAGE}/package.json`)), 'dist', 'index.js');
  } catch {
    return undefined;
  }
}

function cliPath(): string {
  const cli = conformanceCli();
  if (!cli) {
    throw new Error(
      `The MCP conformance suite is not installed: add the devDependency ${CONFORMANCE_PACKAGE} (npm install), or set MCP_CONFORMANCE_DIR to its folder.`,
    );
  }
  return cli;
}

interface Run {
  code: number;
  out: string;
  ms: number;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', SHIM, cliPath(), ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolveRun({ code: code ?? 1, out, ms: Date.now() - started }));
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes of the suite's output
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** The scenarios listed in expected-failures.yml (`client:` followed by `- name` lines, or `client: []`). */
function expectedFailures(text: string): Set<string> {
  const out = new Set<string>();
  let inClient = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (/^client:/.test(line)) inClient = true;
    else if (/^\S/.test(line)) inClient = false;
    const item = /^\s*-\s*(\S+)/.exec(line);
    if (inClient && item) out.add(item[1].replace(/^['"]|['"]$/g, ''));
  }
  return out;
}

/** The suite run once with every scenario in parallel: scenario → passed (no failure, no warning). */
async function runSuite(
  command: string,
  env: Record<string, string>,
): Promise<{ results: Map<string, boolean>; out: string; ms: number }> {
  const timeout = String(SCENARIO_TIMEOUT_MS);
  const run = await runCli(['client', '--suite', 'all', '--command', command, '--timeout', timeout], env);
  const results = new Map<string, boolean>();
  for (const m of strip(run.out).matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)) {
    results.set(m[2], m[1] === '✓');
  }
  return { results, out: run.out, ms: run.ms };
}

/** Every client scenario the installed suite has (`conformance list --client`). */
async function listedScenarios(): Promise<string[]> {
  const run = await runCli(['list', '--client']);
  if (run.code !== 0) throw new Error(`conformance list --client failed:\n${strip(run.out).slice(-2000)}`);
  return [...strip(run.out).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** One scenario alone; passed, with the failed checks' lines. */
async function runAlone(
  command: string,
  env: Record<string, string>,
  scenario: string,
): Promise<{ passed: boolean; checks: string[] }> {
  const timeout = String(SCENARIO_TIMEOUT_MS);
  const run = await runCli(
    ['client', '--scenario', scenario, '--command', command, '--timeout', timeout],
    env,
  );
  const text = strip(run.out);
  const checks = [...text.matchAll(/^\s+- ([^\n]+)$/gm)].map((m) => m[1]).slice(0, 5);
  return { passed: /OVERALL: PASSED/.test(text) && run.code === 0, checks };
}

/**
 * The driver: tabcode's MCP layer in this process, serving the relay (relay.mjs) each scenario's
 * command starts. One process runs every scenario, so the suite's 26 clients cost 26 tiny relays
 * instead of 26 loads of the MCP layer (which, all at once on two cores, outlast the suite's timeout).
 */
async function startDriver(): Promise<{ socket: string; close(): Promise<void> }> {
  const socket = join(tmpdir(), `tabcode-conformance-${process.pid}.sock`);
  rmSync(socket, { force: true });
  const server = createServer((conn) => {
    let buf = '';
    conn.on('data', (d) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      let req: { scenario: string; url: string; context: Record<string, string> };
      try {
        const raw = JSON.parse(buf.slice(0, nl)) as { scenario: string; url: string; context: string };
        req = { scenario: raw.scenario, url: raw.url, context: JSON.parse(raw.context) };
      } catch (err) {
        conn.end(JSON.stringify({ code: 2, output: `driver: a malformed request from the relay (${err})` }));
        return;
      }
      const lines: string[] = [];
      void runConformanceScenario(req.scenario, req.url, req.context, (l) => lines.push(l)).then((code) =>
        conn.end(JSON.stringify({ code, output: lines.join('\n') })),
      );
    });
    conn.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(socket, ok));
  return {
    socket,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/**
 * Bundles the SDK baseline client once (packages stay external), so each of its processes starts
 * in a fraction of the time a TypeScript loader would take.
 */
async function bundleClients(): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    publicDir: false,
    logLevel: 'warn',
    root: ROOT,
    build: {
      ssr: true,
      outDir: OUT_DIR,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        input: {
          client: join(HERE, 'client.ts'),
          'sdk-baseline-client': join(HERE, 'sdk-baseline-client.ts'),
        },
        output: { entryFileNames: '[name].mjs' },
      },
    },
  });
}

/** One scenario's outcome for one client. */
export interface ScenarioOutcome {
  scenario: string;
  passed: boolean;
  /** Passed only when run again alone (the parallel run failed it). */
  passedAlone: boolean;
  /** Failed checks, when it failed. */
  checks: string[];
}

export interface ClientReport {
  label: 'tabcode' | 'sdk-baseline';
  outcomes: ScenarioOutcome[];
  passed: number;
  /** The parallel suite run (ms). */
  suiteMs: number;
}

export interface ConformanceReport {
  /** Every client scenario the installed suite lists (filtered by `only`). */
  listed: string[];
  clients: ClientReport[];
  /** tabcode's failures not in expected-failures.yml, entries there that pass, listed scenarios that did not run. */
  unexpected: string[];
  ms: number;
}

/**
 * Runs the suite's client scenarios against tabcode (and the bare-SDK baseline client when asked) and
 * compares tabcode's outcome with expected-failures.yml. Rejects when the suite is not installed or
 * reports no scenarios; `log` gets one line per scenario.
 */
export async function runConformance(
  options: { only?: string; baseline?: boolean; log?: (line: string) => void } = {},
): Promise<ConformanceReport> {
  const { only, baseline = false, log = () => {} } = options;
  const started = Date.now();
  const listed = (await listedScenarios()).filter((s) => !only || s.includes(only));
  if (listed.length === 0) throw new Error('The suite lists no client scenarios.');
  if (baseline) await bundleClients();
  const driver = await startDriver();
  const expected = expectedFailures(readFileSync(BASELINE_FILE, 'utf8'));
  const clients: Array<{ label: ClientReport['label']; command: string; env: Record<string, string> }> = [
    {
      label: 'tabcode',
      command: `${process.execPath} ${join(HERE, 'relay.mjs')}`,
      env: { TABCODE_CONFORMANCE_SOCKET: driver.socket },
    },
    ...(baseline
      ? [
          {
            label: 'sdk-baseline' as const,
            command: `${process.execPath} ${join(OUT_DIR, 'sdk-baseline-client.mjs')}`,
            env: {},
          },
        ]
      : []),
  ];
  const reports: ClientReport[] = [];
  const unexpected = new Set<string>();
  try {
    for (const client of clients) {
      const suite = await runSuite(client.command, client.env);
      if (suite.results.size === 0) {
        throw new Error(`The suite reported no client scenarios:\n${strip(suite.out).slice(-3000)}`);
      }
      log(
        `${client.label}: ${listed.length} client scenarios in parallel (${(suite.ms / 1000).toFixed(1)} s)`,
      );
      const outcomes: ScenarioOutcome[] = [];
      for (const scenario of listed) {
        const ran = suite.results.has(scenario);
        let passed = suite.results.get(scenario) === true;
        let passedAlone = false;
        let checks: string[] = [];
        if (!passed) {
          // Timing checks (sse-retry) suffer when every scenario runs at once: a failure is run again alone.
          const alone = await runAlone(client.command, client.env, scenario);
          passed = passedAlone = alone.passed;
          checks = alone.passed ? [] : alone.checks;
        }
        outcomes.push({ scenario, passed, passedAlone, checks });
        const listedAsExpected = expected.has(scenario);
        const mark = passed ? (listedAsExpected ? 'STALE' : 'pass') : listedAsExpected ? 'expected' : 'FAIL';
        const note = !ran
          ? ' (missing from the parallel run)'
          : passedAlone
            ? ' (failed in the parallel run, passed alone)'
            : '';
        log(
          `  ${mark.padEnd(8)} ${scenario}${note}${checks.length ? `\n      ${checks.join('\n      ')}` : ''}`,
        );
        if (client.label === 'tabcode' && passed === listedAsExpected) unexpected.add(scenario);
      }
      const passedCount = outcomes.filter((o) => o.passed).length;
      log(`${client.label}: ${passedCount}/${listed.length} scenarios passed`);
      reports.push({ label: client.label, outcomes, passed: passedCount, suiteMs: suite.ms });
    }
  } finally {
    await driver.close();
  }
  return { listed, clients: reports, unexpected: [...unexpected], ms: Date.now() - started };
}

async function main() {
  const report = await runConformance({
    only: arg('only'),
    baseline: process.argv.includes('--baseline'),
    log: (line) => console.log(line),
  });
  console.log(`(${(report.ms / 1000).toFixed(1)} s)`);
  if (report.unexpected.length) {
    console.log(
      `unexpected results (failures not in ${relative(ROOT, BASELINE_FILE)}, or entries there that now pass): ${report.unexpected.join(', ')}`,
    );
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
