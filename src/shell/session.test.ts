/**
 * What the session gives a line its meaning: HOME for `~` (unknown when the line may change it), CDPATH,
 * PATH (a program name may lead to a file the agent wrote), and start-up code of nested shells.
 */
import { describe, expect, it } from 'vitest';
import { analyzeShell } from './analyze.ts';
import { inSession, isCodeVariable, isPlainVariable } from './session.ts';

const ENV = { HOME: '/home/user/project', PATH: '/usr/bin:/bin' };
const view = async (command: string, env: Record<string, string> = ENV) =>
  inSession(await analyzeShell(command), { cwd: '/home/user/project', env });

describe('variables programs read', () => {
  it("npm_config_* in any case, as the sandbox's npm reads them", () => {
    for (const name of [
      'npm_config_cache',
      'NPM_CONFIG_CACHE',
      'Npm_Config_Cache',
      'npm_CONFIG_userconfig',
    ]) {
      expect(isCodeVariable(name), name).toBe(true);
      expect(isPlainVariable(name), name).toBe(false);
    }
  });
});

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

describe("variables a wrapper sets for the command are the line's, as prefix assignments are", () => {
  it('env NAME=, -u NAME, -i and wrappers with an environment of their own leave HOME unknown', async () => {
    for (const command of [
      "HOME=/x bash -c 'cat ~/a'",
      "env HOME=/x bash -c 'cat ~/a'",
      "env -u HOME bash -c 'cat ~/a'",
      "env -uHOME sh -c 'cat ~/a'",
      "env --unset=HOME sh -c 'cat ~/a'",
      "env -i bash -c 'cat ~/a'",
      "env - bash -c 'cat ~/a'",
      "env --ignore-environment bash -c 'cat ~/a'",
      "timeout 5 env HOME=/x sh -c 'cat ~/a'",
      "find . -exec env HOME=/x sh -c 'cat ~/a' \\;",
      "sudo bash -c 'cat ~/a'",
      "sudo HOME=/x bash -c 'cat ~/a'",
      "su -c 'cat ~/a'",
      "envdir ./e sh -c 'cat ~/a'",
    ]) {
      expect((await view(command)).home, command).toBeNull();
    }
    for (const command of ["env n=1 bash -c 'cat ~/a'", "env -C src sh -c 'cat ~/a'", 'nice cat ~/a']) {
      expect((await view(command)).home, command).toBe('/home/user/project');
    }
  });

  it('a PATH env sets makes the program names of the code it runs untrusted', async () => {
    for (const command of [
      'env PATH=/tmp/b bash -c ls',
      'env -i PATH=/tmp/b bash -c ls',
      'sudo bash -c ls',
    ]) {
      const ls = (await view(command)).analysis.commands.find((c) => c.words[0]?.text === 'ls');
      expect(ls, command).toMatchObject({ readOnly: false, reason: 'the line changes PATH' });
    }
  });

  it("sudo's NAME=value words are variables, and what follows them is the program", async () => {
    const a = await analyzeShell("sudo HOME=/x LD_PRELOAD=/x.so bash -c 'ls'");
    expect(a.assigns).toEqual('any');
    const bash = a.commands.find((c) => c.words[0]?.text === 'bash');
    expect(bash?.reason).toMatch(/LD_PRELOAD set for the command/);
  });

  it('the code a command started by env -C runs, runs from its directory', async () => {
    for (const command of [
      "env -C secrets sh -c 'cat key.pem'",
      'find . -exec env -C secrets cat key.pem \\;',
    ]) {
      const cat = (await analyzeShell(command)).commands.find((c) => c.words[0]?.text === 'cat');
      expect(cat?.paths[0]?.cdTrail, command).toEqual(['secrets']);
    }
  });
});
