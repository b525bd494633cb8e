/**
 * What the session gives a line its meaning: HOME for `~` (unknown when the line may change it), CDPATH,
 * PATH (a program name may lead to a file the agent wrote), and start-up code of nested shells.
 */
import { describe, expect, it } from 'vitest';
import { analyzeShell } from './analyze.ts';
import { inSession } from './session.ts';

const ENV = { HOME: '/home/user/project', PATH: '/usr/bin:/bin' };
const view = async (command: string, env: Record<string, string> = ENV) =>
  inSession(await analyzeShell(command), { cwd: '/home/user/project', env });

describe('the session gives a line its meaning', () => {
  it('HOME comes from the session, and is unknown when the line may change it', async () => {
    expect((await view('cat ~/a', { ...ENV, HOME: '/etc' })).home).toBe('/etc');
    for (const command of [
      'HOME=/x; cat ~/a',
      'export HOME=/x && cat ~/a',
      'read HOME; cat ~/a',
      'eval "$X"; cat ~/a',
    ]) {
      expect((await view(command)).home, command).toBeNull();
    }
    expect((await view('cat ~/a', { PATH: '/bin' })).home).toBeNull();
  });

  it('CDPATH from the session or the line', async () => {
    expect((await view('cd src')).cdpath).toBe(false);
    expect((await view('cd src', { ...ENV, CDPATH: '/x' })).cdpath).toBe(true);
    expect((await view('CDPATH=/x; cd src')).cdpath).toBe(true);
  });

  it('a PATH holding other directories makes program names untrusted', async () => {
    expect((await view('ls')).analysis.readOnly).toBe(true);
    const shadowed = await view('ls', { ...ENV, PATH: '/home/user/project/bin:/usr/bin:/bin' });
    expect(shadowed.analysis.readOnly).toBe(false);
    expect(shadowed.analysis.commands[0]).toMatchObject({ opaque: true });
    // Builtins do not go through PATH; the line changing PATH does the same as the session.
    expect((await view('echo hi', { ...ENV, PATH: '/tmp:/usr/bin' })).analysis.readOnly).toBe(true);
    expect((await view('PATH=/tmp:$PATH; ls')).analysis.commands[1]).toMatchObject({ readOnly: false });
    expect(
      inSession(
        await analyzeShell('ls'),
        { cwd: '/', env: { PATH: '/opt/x:/bin' } },
        { trustedPath: ['/opt/x'] },
      ).analysis.readOnly,
    ).toBe(true);
  });

  it('BASH_ENV and a trace prompt with code make nested shells opaque', async () => {
    expect((await view("bash -c 'ls'")).analysis.readOnly).toBe(true);
    expect((await view("bash -c 'ls'", { ...ENV, BASH_ENV: '/x.sh' })).analysis.readOnly).toBe(false);
    expect((await view("bash -c 'ls'", { ...ENV, PS4: '$(id)' })).analysis.readOnly).toBe(false);
    expect((await view("bash -c 'ls'", { ...ENV, PS4: '+ ' })).analysis.readOnly).toBe(true);
  });

  it('an exported function replaces a command in nested shells', async () => {
    const env = { ...ENV, 'BASH_FUNC_ls%%': '() {  rm -rf src\n}' };
    const v = await view("bash -c 'ls'", env);
    expect(v.analysis.readOnly).toBe(false);
    expect(v.analysis.commands.find((c) => c.startsShell)?.reason).toMatch(/exports the function ls/);
  });

  it('the dynamic loader and program option files from the session', async () => {
    for (const name of ['LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH']) {
      const v = await view('ls src', { ...ENV, [name]: '/home/user/project/x.so' });
      expect(v.analysis.readOnly, name).toBe(false);
      expect(v.analysis.commands[0]).toMatchObject({ opaque: true });
      // A builtin loads no library.
      expect((await view('echo hi', { ...ENV, [name]: '/x.so' })).analysis.readOnly, name).toBe(true);
    }
    const rg = { ...ENV, RIPGREP_CONFIG_PATH: '/home/user/project/rg.conf' };
    expect((await view('rg alpha notes.txt', rg)).analysis.readOnly).toBe(false);
    expect((await view('grep alpha notes.txt', rg)).analysis.readOnly).toBe(true);
  });

  it("git configured by the session's environment is not read-only", async () => {
    expect((await view('git status')).analysis.readOnly).toBe(true);
    expect((await view('git status', { ...ENV, GIT_AUTHOR_NAME: 'A' })).analysis.readOnly).toBe(true);
    for (const name of ['GIT_EXTERNAL_DIFF', 'GIT_CONFIG_COUNT', 'GIT_TRACE', 'GIT_DIR', 'XDG_CONFIG_HOME']) {
      expect((await view('git diff', { ...ENV, [name]: '/x' })).analysis.readOnly, name).toBe(false);
    }
  });
});
