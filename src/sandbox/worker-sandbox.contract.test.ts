import { runSandboxContract } from './contract.ts';
import { createInProcessSandboxWorker } from './worker/in-process.ts';
import { createWorkerSandbox } from './worker-sandbox.ts';

// The page-side proxy over the worker's protocol, with the worker's code in-process: every contract case
// goes through the messages a real worker would get.
runSandboxContract('just-bash in a worker', async () => {
  const sandbox = await createWorkerSandbox({
    files: { 'README.md': '# contract\n' },
    createWorker: () => createInProcessSandboxWorker(),
  });
  return {
    sandbox,
    forever: 'echo started; sleep 600',
    async symlink(target, link) {
      const r = await sandbox.exec(`ln -s '${target}' '${link}'`, { origin: 'internal' });
      if (r.exitCode !== 0) throw new Error(`ln -s failed: ${r.stderr}`);
    },
  };
});
