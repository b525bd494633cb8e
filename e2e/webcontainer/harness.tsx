/**
 * A page for Playwright that mounts one sandbox and the Terminal, served by Vite's dev server with the
 * app's config (COOP/COEP on). `?backend=just-bash|fake-webcontainer|webcontainer`; `&contract=1` skips
 * the terminal. It exposes `window.harness` (see HarnessApi) to drive the sandbox as the agent would
 * and to run the sandbox contract in the browser.
 */
import { createRoot } from 'react-dom/client';
import {
  CONTRACT_CASES,
  type ContractFactory,
  type ContractTarget,
  runContractCase,
} from '../../src/sandbox/contract-cases.ts';
import { createJustBashSandbox } from '../../src/sandbox/just-bash.ts';
import type { ExecResult, Sandbox } from '../../src/sandbox/sandbox.ts';
import { FakeWebContainer } from '../../src/sandbox/testing/fake-webcontainer.ts';
import { createWebContainerSandbox, type WebContainerApi } from '../../src/sandbox/webcontainer.ts';
import { acquireWebContainer } from '../../src/sandbox/webcontainer-boot.ts';
import { Terminal } from '../../src/ui/Terminal.tsx';

export interface ContractResult {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

export interface HarnessApi {
  /** Resolves when the sandbox is up (or `skipped` says why it could not be). */
  ready: Promise<void>;
  skipped?: string;
  sandbox?: Sandbox;
  /** Runs a command the way the agent's Bash tool does (announced as the agent's). */
  agentExec(command: string): Promise<ExecResult>;
  /** Runs every contract case against fresh sandboxes of this backend. */
  runContract(only?: string): Promise<ContractResult[]>;
}

declare global {
  interface Window {
    harness: HarnessApi;
  }
}

const params = new URLSearchParams(location.search);
const backend = params.get('backend') ?? 'just-bash';
const status = document.getElementById('status') as HTMLElement;
const FILES = { 'README.md': '# harness\n', 'src/index.js': "console.log('hi');\n" };

let factory: ContractFactory;
let wc: WebContainerApi | undefined;

async function cleanWorkdir(api: WebContainerApi): Promise<void> {
  for (const name of await api.fs.readdir('/')) await api.fs.rm(`/${name}`, { recursive: true, force: true });
}

async function start(): Promise<Sandbox | undefined> {
  if (backend === 'just-bash') {
    factory = async () => {
      const sandbox = await createJustBashSandbox({ files: FILES });
      return {
        sandbox,
        forever: 'echo started; sleep 600',
        symlink: async (target, link) => void (await sandbox.exec(`ln -s '${target}' '${link}'`)),
      };
    };
    return createJustBashSandbox({ files: FILES, reason: 'harness: just-bash' });
  }
  if (backend === 'fake-webcontainer') {
    factory = async () => {
      const sandbox = await createWebContainerSandbox(new FakeWebContainer(), { files: FILES });
      return {
        sandbox,
        forever: 'echo started; sleep 600',
        symlink: async (target, link) => void (await sandbox.exec(`ln -s '${target}' '${link}'`)),
      };
    };
    return createWebContainerSandbox(new FakeWebContainer(), {
      files: FILES,
      reason: 'harness: fake WebContainer',
    });
  }
  try {
    const acquired = await acquireWebContainer({
      timeoutMs: 60_000,
      probeGraceMs: 5_000,
      workdirName: 'project',
    });
    wc = acquired.wc;
  } catch (err) {
    window.harness.skipped = err instanceof Error ? err.message : String(err);
    return undefined;
  }
  const real = wc;
  factory = async (): Promise<ContractTarget> => {
    await cleanWorkdir(real);
    const sandbox = await createWebContainerSandbox(real, { files: FILES });
    return {
      sandbox,
      forever: `echo started; node -e "setInterval(() => {}, 1000)"`,
      async symlink(target, link) {
        const code = `require('fs').symlinkSync(${JSON.stringify(target)}, ${JSON.stringify(link)})`;
        const r = await sandbox.exec(`node -e ${JSON.stringify(code)}`, { origin: 'internal' });
        if (r.exitCode !== 0) throw new Error(`symlink failed: ${r.stdout}`);
      },
    };
  };
  return createWebContainerSandbox(real, { files: FILES, reason: 'harness: WebContainer' });
}

window.harness = {
  ready: Promise.resolve(),
  agentExec: async (command) => {
    const sandbox = window.harness.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    return sandbox.exec(command, { origin: 'agent', timeoutMs: 30_000 });
  },
  async runContract(only) {
    const results: ContractResult[] = [];
    for (const c of CONTRACT_CASES) {
      if (only && !c.name.includes(only)) continue;
      const t = performance.now();
      try {
        await runContractCase(c, factory);
        results.push({ name: c.name, ok: true, ms: performance.now() - t });
      } catch (err) {
        results.push({
          name: c.name,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
          ms: performance.now() - t,
        });
      }
      status.textContent = `contract: ${results.length} cases run, ${results.filter((r) => !r.ok).length} failed`;
    }
    return results;
  },
};

window.harness.ready = (async () => {
  const sandbox = await start();
  if (!sandbox) {
    status.textContent = `skipped: ${window.harness.skipped}`;
    status.dataset.state = 'skipped';
    return;
  }
  window.harness.sandbox = sandbox;
  status.textContent = `${sandbox.kind}: ${sandbox.info().reason}`;
  status.dataset.state = 'ready';
  status.dataset.kind = sandbox.kind;
  if (params.get('contract') !== '1') {
    createRoot(document.getElementById('root') as HTMLElement).render(
      <Terminal sandbox={sandbox} autoFocus />,
    );
  }
})();
