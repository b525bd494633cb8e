import { Bash, InMemoryFs } from 'just-bash/browser';
import { describe, expect, it } from 'vitest';
import { platformCommands } from './platform-commands.ts';
import { UNAVAILABLE_COMMANDS, UNAVAILABLE_EXIT_CODE } from './unavailable-commands.ts';

const shell = () => new Bash({ fs: new InMemoryFs({}), cwd: '/w', customCommands: platformCommands() });

describe('platform commands', () => {
  it('say what is unavailable and what to use instead', async () => {
    const bash = shell();
    for (const [name, instead] of Object.entries(UNAVAILABLE_COMMANDS)) {
      const r = await bash.exec(`${name} --help`);
      expect(r.exitCode).toBe(UNAVAILABLE_EXIT_CODE);
      expect(r.stderr).toBe(`${name}: not available in this browser sandbox: ${instead}\n`);
      expect(r.stderr).not.toMatch(/Node\.js bundle/);
    }
    const r = await bash.exec('tar -cf a.tar x || echo "fell back $?"');
    expect(r.stdout).toBe('fell back 127\n');
  });

  it('replace just-bash gzip (which needs Node zlib) with the stream one', async () => {
    const r = await shell().exec('printf abc | gzip | gunzip; gzip -l x.gz');
    expect(r.stdout).toBe('abc');
    expect(r.stderr).toMatch(/^gzip: --list is not supported in this sandbox/);
  });
});
