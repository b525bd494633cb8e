import { runSandboxContract } from './contract.ts';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import { createWebContainerSandbox } from './webcontainer.ts';

runSandboxContract('webcontainer (typed fake)', async () => {
  const wc = new FakeWebContainer();
  const sandbox = await createWebContainerSandbox(wc, { files: { 'README.md': '# contract\n' } });
  return {
    sandbox,
    forever: 'echo started; sleep 600',
    async symlink(target, link) {
      const r = await sandbox.exec(`ln -s '${target}' '${link}'`, { origin: 'internal' });
      if (r.exitCode !== 0) throw new Error(`ln -s failed: ${r.stdout}${r.stderr}`);
    },
  };
});
