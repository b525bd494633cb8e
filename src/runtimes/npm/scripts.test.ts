/**
 * `npm run`, `test`, `start`, `stop`, `restart`, `init`, `--version`, `help` in a real just-bash shell
 * with npm registered as a custom command. Scripts are shell commands (a test-only `node` prints its
 * argv where a script needs node).
 */
import { describe, expect, it } from 'vitest';
import { NPM_VERSION } from './constants.ts';
import { makeShell, PROJECT, pkgJson, readJson } from './testing/harness.ts';

const project = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  makeShell({ files: { 'package.json': pkgJson({ name: 'app', version: '1.2.3', scripts, ...extra }) } });

describe('npm run', () => {
  it("prints npm's banner, runs pre and post scripts, and appends quoted arguments", async () => {
    const bash = project({
      prebuild: 'echo pre',
      build: 'echo "args:" "$@" && printf "[%s]\\n" ',
      postbuild: 'echo post',
    });
    const r = await bash.exec(`npm run build -- one 'two words' '$HOME'`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        '',
        '> app@1.2.3 prebuild',
        '> echo pre',
        '',
        'pre',
        '',
        '> app@1.2.3 build',
        // The banner shows the arguments as given; the command line gets them quoted.
        '> echo "args:" "$@" && printf "[%s]\\n" one two words $HOME',
        '',
        // "$@" is empty: npm appends the arguments to the command line rather than passing them.
        'args:',
        '[one]',
        '[two words]',
        '[$HOME]',
        '',
        '> app@1.2.3 postbuild',
        '> echo post',
        '',
        'post',
        '',
      ].join('\n'),
    );
  });

  it('sets the npm_* variables, INIT_CWD and a PATH with every node_modules/.bin up to /', async () => {
    const names = [
      'npm_lifecycle_event',
      'npm_package_name',
      'npm_package_version',
      'npm_package_json',
      'INIT_CWD',
      'npm_command',
      'npm_package_config_port',
      'npm_config_user_agent',
      'npm_lifecycle_script',
      'PATH',
    ];
    const bash = project({ env: `printenv ${names.join(' ')}` }, { config: { port: '8080' } });
    await bash.exec('mkdir -p src/deep');
    const r = await bash.exec('cd src/deep && npm run env --silent');
    expect(r.stderr).toBe('');
    const values = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((v, i) => [names[i], v]),
    );
    expect(values).toMatchObject({
      npm_lifecycle_event: 'env',
      npm_package_name: 'app',
      npm_package_version: '1.2.3',
      npm_package_json: `${PROJECT}/package.json`,
      INIT_CWD: `${PROJECT}/src/deep`,
      npm_command: 'run-script',
      npm_package_config_port: '8080',
      npm_lifecycle_script: `printenv ${names.join(' ')}`,
    });
    expect(values.npm_config_user_agent).toMatch(
      new RegExp(`^npm/${NPM_VERSION.replace(/\./g, '\\.')} node/v`),
    );
    expect(values.PATH.split(':').slice(0, 4)).toEqual([
      `${PROJECT}/node_modules/.bin`,
      '/home/user/node_modules/.bin',
      '/home/node_modules/.bin',
      '/node_modules/.bin',
    ]);
  });

  it("programs a script starts see npm's variables in their environment", async () => {
    const bash = project({ show: 'show-env' });
    const seen: Record<string, string | undefined>[] = [];
    bash.registerCommand({
      name: 'show-env',
      execute: async (_args, ctx) => {
        seen.push({ ...ctx.exportedEnv });
        return { stdout: '', stderr: '', exitCode: 0 };
      },
    });
    expect((await bash.exec('npm run show -s')).exitCode).toBe(0);
    expect(seen[0]?.npm_package_name).toBe('app');
    expect(seen[0]?.npm_lifecycle_event).toBe('show');
    expect(seen[0]?.PATH?.startsWith(`${PROJECT}/node_modules/.bin:`)).toBe(true);
  });

  it('runs the script in the package folder, found by walking up from cwd', async () => {
    const bash = project({ where: 'pwd' });
    await bash.exec('mkdir -p lib/a');
    const r = await bash.exec('cd lib/a && npm run where -s');
    expect(r.stdout).toBe(`${PROJECT}\n`);
  });

  it('--prefix names the package folder', async () => {
    const bash = makeShell({
      files: {
        'sub/package.json': pkgJson({ name: 'sub', version: '0.0.1', scripts: { hi: 'echo hi from sub' } }),
      },
    });
    const r = await bash.exec('npm --prefix sub run hi');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('> sub@0.0.1 hi');
    expect(r.stdout).toContain('hi from sub');
  });

  it("a missing script is npm's error with the list hint (and a suggestion), exit 1", async () => {
    const bash = project({ build: 'echo b', test: 'echo t' });
    const r = await bash.exec('npm run buil');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'npm error Missing script: "buil"',
        'npm error',
        'npm error Did you mean this?',
        'npm error   npm run build # run the "build" package script',
        'npm error',
        'npm error To see a list of scripts, run:',
        'npm error   npm run',
        '',
      ].join('\n'),
    );
    expect((await bash.exec('npm run nothing-like-it')).stderr).not.toContain('Did you mean');
  });

  it('--if-present makes a missing script a no-op', async () => {
    const bash = project({});
    const r = await bash.exec('npm run lint --if-present; echo "rc=$?"');
    expect(r.stdout).toBe('rc=0\n');
    expect(r.stderr).toBe('');
  });

  it("a failing script returns its exit code and npm's error lines; the post script does not run", async () => {
    const bash = project({ check: 'echo checking; exit 3', postcheck: 'echo never' });
    const r = await bash.exec('npm run check; echo "rc=$?"');
    expect(r.stdout).toContain('checking\n');
    expect(r.stdout).not.toContain('never');
    expect(r.stdout.endsWith('rc=3\n')).toBe(true);
    expect(r.stderr).toContain('npm error Lifecycle script `check` failed with error:');
    expect(r.stderr).toContain('npm error code 3');
    expect(r.stderr).toContain(`npm error path ${PROJECT}`);
    expect(r.stderr).toContain('npm error command sh -c echo checking; exit 3');
  });

  it("--silent (-s) drops the banner and npm's own lines", async () => {
    const bash = project({ hi: 'echo hi', bad: 'exit 4' });
    expect((await bash.exec('npm run hi -s')).stdout).toBe('hi\n');
    expect((await bash.exec('npm run --silent hi')).stdout).toBe('hi\n');
    const bad = await bash.exec('npm -s run bad');
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr).toBe('');
  });

  it('npm run alone lists the scripts, lifecycle ones first', async () => {
    const bash = project({ test: 'vitest', build: 'tsc', start: 'node .' });
    const r = await bash.exec('npm run');
    expect(r.stdout).toBe(
      [
        'Lifecycle scripts included in app@1.2.3:',
        '  test',
        '    vitest',
        '  start',
        '    node .',
        'available via `npm run`:',
        '  build',
        '    tsc',
        '',
      ].join('\n'),
    );
  });

  it('a script finds programs in node_modules/.bin', async () => {
    const bash = project({ greet: 'my-tool --loud' });
    await bash.exec('mkdir -p node_modules/.bin');
    await bash.fs.writeFile(`${PROJECT}/node_modules/.bin/my-tool`, 'echo "my-tool says $1"\n');
    await bash.fs.chmod(`${PROJECT}/node_modules/.bin/my-tool`, 0o755);
    const r = await bash.exec('npm run greet -s');
    expect(r.stdout).toBe('my-tool says --loud\n');
  });

  it("without package.json, npm run is npm's ENOENT error", async () => {
    const bash = makeShell();
    const r = await bash.exec('npm run build');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error code ENOENT');
    expect(r.stderr).toContain(
      `Could not read package.json: Error: ENOENT: no such file or directory, open '${PROJECT}/package.json'`,
    );
  });

  it('invalid package.json is EJSONPARSE', async () => {
    const bash = makeShell({ files: { 'package.json': '{ "name": ' } });
    const r = await bash.exec('npm test');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error code EJSONPARSE');
  });
});

describe('npm test, start, stop, restart', () => {
  it('npm test and npm t run the test script with arguments', async () => {
    const bash = project({ test: 'echo testing' });
    const r = await bash.exec('npm test -- --watch && npm t');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('> app@1.2.3 test\n> echo testing --watch\n\ntesting --watch\n');
    expect(r.stdout.match(/testing/g)?.length).toBe(4);
  });

  it('npm test without a test script says so', async () => {
    const r = await project({}).exec('npm test');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error Missing script: "test"');
  });

  it('npm start runs `node server.js` when there is no start script and server.js exists', async () => {
    const bash = makeShell({
      files: { 'package.json': pkgJson({ name: 'srv', version: '1.0.0' }), 'server.js': '' },
    });
    const r = await bash.exec('npm start');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('> srv@1.0.0 start\n> node server.js\n\n');
    expect(r.stdout).toContain(`node ["server.js"] cwd=${PROJECT}`);
    const none = await project({}).exec('npm start');
    expect(none.stderr).toContain('Missing script: "start"');
  });

  it('npm restart runs stop then start when there is no restart script; npm stop runs stop', async () => {
    const bash = project({ start: 'echo starting', stop: 'echo stopping' });
    const r = await bash.exec('npm restart -s');
    expect(r.stdout).toBe('stopping\nstarting\n');
    expect((await bash.exec('npm stop -s')).stdout).toBe('stopping\n');
  });
});

describe('npm basics', () => {
  it('--version, -v and npm version', async () => {
    const bash = project({});
    expect((await bash.exec('npm --version')).stdout).toBe(`${NPM_VERSION}\n`);
    expect((await bash.exec('npm -v')).stdout).toBe(`${NPM_VERSION}\n`);
    const v = JSON.parse((await bash.exec('npm version')).stdout);
    expect(v.app).toBe('1.2.3');
    expect(v.npm).toBe(NPM_VERSION);
  });

  it('npm help lists the commands; npm alone prints usage and exits 1', async () => {
    const bash = makeShell();
    const help = await bash.exec('npm help');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('npm install <pkg>');
    expect(help.stdout).toContain('npm run <script>');
    expect((await bash.exec('npm')).exitCode).toBe(1);
  });

  it('an unknown command is a clear error', async () => {
    const r = await makeShell().exec('npm publish');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error Unknown command: "publish"');
  });

  it("npm init -y writes npm's default package.json and keeps existing fields", async () => {
    const bash = makeShell();
    await bash.exec('mkdir -p "/home/user/My Tool"');
    const r = await bash.exec('cd "/home/user/My Tool" && npm init -y');
    expect(r.exitCode).toBe(0);
    const written = await readJson(bash, '/home/user/My Tool/package.json');
    expect(written).toEqual({
      name: 'my-tool',
      version: '1.0.0',
      description: '',
      main: 'index.js',
      scripts: { test: 'echo "Error: no test specified" && exit 1' },
      keywords: [],
      author: '',
      license: 'ISC',
      type: 'commonjs',
    });
    expect(r.stdout.startsWith('Wrote to /home/user/My Tool/package.json:\n\n{\n  "name": "my-tool",')).toBe(
      true,
    );
    const existing = project({ build: 'tsc' });
    await existing.exec('npm init -y');
    const merged = await readJson(existing, 'package.json');
    expect(merged.name).toBe('app');
    expect(merged.version).toBe('1.2.3');
    expect(merged.scripts).toEqual({ build: 'tsc' });
    expect(merged.license).toBe('ISC');
  });

  it('npm prefix and npm root', async () => {
    const bash = project({});
    await bash.exec('mkdir -p a/b');
    expect((await bash.exec('cd a/b && npm prefix')).stdout).toBe(`${PROJECT}\n`);
    expect((await bash.exec('npm root')).stdout).toBe(`${PROJECT}/node_modules\n`);
  });
});
