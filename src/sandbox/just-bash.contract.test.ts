import { runSandboxContract } from './contract.ts';
import { createJustBashSandbox } from './just-bash.ts';

runSandboxContract('just-bash', async () => {
  const sandbox = await createJustBashSandbox({ files: { 'README.md': '# contract\n' } });
  return {
    sandbox,
    forever: 'echo started; sleep 600',
    async symlink(target, link) {
      const r = await sandbox.exec(`ln -s '${target}' '${link}'`, { origin: 'internal' });
      if (r.exitCode !== 0) throw new Error(`ln -s failed: ${r.stderr}`);
    },
  };
});
