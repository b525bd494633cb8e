/**
 * Deny is for what surely runs: a word that only looks like a denied program (`docker rm web` is not
 * rm) must ask, never be refused outright (the user could not even approve it) and never run unasked.
 * Through the real tool-call path in the real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../../sandbox/just-bash.ts';
import { FakeWebContainer } from '../../../sandbox/testing/fake-webcontainer.ts';
import { createWebContainerSandbox } from '../../../sandbox/webcontainer.ts';
import { RULES as CORPUS_RULES, decisionOf, FIXTURE } from './harness.ts';

const RULES = { deny: ['Bash(rm:*)', 'Bash(curl *)'], allow: ['Bash(git rm:*)'] };

const LOOKS_LIKE_A_DENIED_PROGRAM = [
  'git rm --cached f',
  'git commit -m rm',
  'docker rm web',
  'npm run rm',
  'apt-get install curl',
  'kubectl rm pod',
  'make rm',
];

describe('words that only look like a denied program ask', () => {
  it.each(LOOKS_LIKE_A_DENIED_PROGRAM)('%s', async (command) => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      expect(await decisionOf(command, mode, RULES), mode).toBe('ask');
    }
    // dontAsk never asks: the ask becomes a deny that says why.
    expect(await decisionOf(command, 'dontAsk', RULES)).toBe('deny');
  });

  it('what surely runs is still denied, through wrappers and paths', async () => {
    for (const command of [
      'rm -rf src',
      '/bin/rm -rf src',
      'timeout 5 rm x',
      'git status && rm x',
      'curl -s x',
    ]) {
      expect(await decisionOf(command, 'bypassPermissions', RULES), command).toBe('deny');
    }
  });

  it('an allow rule lets the command it names run when nothing denied surely runs', async () => {
    expect(await decisionOf('git rm --cached f', 'default', { allow: ['Bash(git rm:*)'] })).toBe('allow');
  });

  it('bypassPermissions runs what no rule names, though path rules exist (an operand is not a directory)', async () => {
    for (const command of ['npm test', 'npm run build', 'git commit -m msg', 'make all', 'node --version']) {
      expect(await decisionOf(command, 'bypassPermissions', CORPUS_RULES), command).toBe('allow');
    }
  });

  it('an unknown program given files, or a folder no rule reaches into, runs in bypassPermissions', async () => {
    for (const command of [
      'npx prettier --write notes.txt README.md',
      'npx degit user/repo newdir',
      'npx eslint README.md',
      'mkdir docs && npx typedoc --out docs',
    ]) {
      expect(await decisionOf(command, 'bypassPermissions', CORPUS_RULES), command).toBe('allow');
    }
    // The folder holds nothing a rule names: looking inside it changes nothing.
    expect(await decisionOf('npx eslint src', 'bypassPermissions', { deny: ['Read(/secrets/**)'] })).toBe(
      'allow',
    );
  });
});

describe('reading files next to path rules stays unasked', () => {
  it('comparing, filtering and listing named files runs unasked in default mode', async () => {
    for (const command of [
      'diff notes.txt README.md',
      'diff -u src/app.ts src/util.ts',
      'git diff --no-index notes.txt README.md',
      "awk '{print $1}' notes.txt",
      'grep -n alpha notes.txt',
      'cd src && ls',
      'tac notes.txt',
      'tac -s , notes.txt',
      'echo x | xargs - echo',
    ]) {
      expect(await decisionOf(command, 'default', CORPUS_RULES), command).toBe('allow');
    }
  });
});

describe("a script's own variables and functions stay unasked", () => {
  it('setting and using a lowercase variable, or defining a function, runs unasked in default mode', async () => {
    for (const command of [
      'x=1; echo $x',
      'f() { echo hi; }',
      'dir=src; ls $dir',
      'n=3 echo hi',
      'msg="done"; printf "%s\\n" "$msg"',
    ]) {
      expect(await decisionOf(command, 'default', {}), command).toBe('allow');
    }
  });

  it('calling a function asks (where its definition did not run, the name runs a program)', async () => {
    expect(await decisionOf('if false; then f() { :; }; fi; f', 'default', {})).toBe('ask');
  });

  it('variables the shell or programs read still ask', async () => {
    for (const command of [
      'PATH=/tmp; ls',
      'IFS=/; echo a',
      'HOME=/tmp; ls ~',
      'LANG=C ls',
      'BASH_ENV=x bash -c ls',
    ]) {
      expect(await decisionOf(command, 'default', {}), command).toBe('ask');
    }
  });
});

describe('acceptEdits allows the file commands Claude Code does, on workspace files', () => {
  it('sed -i and rmdir run unasked; code they would run, or paths outside, still ask', async () => {
    for (const command of [
      'sed -i s/a/b/ notes.txt',
      'mkdir d && rmdir d',
      "sed -i 's/a/b/w out.txt' notes.txt",
    ]) {
      expect(await decisionOf(command, 'acceptEdits', {}), command).toBe('allow');
    }
    for (const command of [
      "sed -i 's/a/b/e' notes.txt",
      'sed -i s/a/b/ /etc/hosts',
      "sed -i '1r /etc/passwd' notes.txt",
      'sed -i s/a/b/ .git/config',
      'LANG=C sed -i s/a/b/ notes.txt',
    ]) {
      expect(await decisionOf(command, 'acceptEdits', {}), command).toBe('ask');
    }
  });
});

describe('a line that only reads through folders holding nothing a rule names runs unasked', () => {
  it('grep -r, find and ls -R of src next to Read(.env) and Read(/secrets/**), in default mode', async () => {
    for (const command of [
      'grep -rn alpha src',
      'find src -name "*.ts"',
      'ls -R src',
      'grep -r util src config',
    ]) {
      expect(await decisionOf(command, 'default', CORPUS_RULES), command).toBe('allow');
    }
    // The root holds .env and secrets/: still asked.
    expect(await decisionOf('grep -r TOKEN .', 'default', CORPUS_RULES)).toBe('ask');
  });

  it('not while a background process runs (it may link a denied folder in before the search runs)', async () => {
    const before = { setup: ['mkdir docs'] };
    expect(await decisionOf('grep -R sk-live docs', 'default', CORPUS_RULES, before)).toBe('allow');
    const job = { ...before, background: ['sleep 5; ln -s ../secrets docs/s'] };
    expect(await decisionOf('grep -R sk-live docs', 'default', CORPUS_RULES, job)).toBe('ask');
  });
});

describe('mv of files next to path rules', () => {
  it('moving a file (not a folder) runs unasked in acceptEdits: only a folder takes a tree with it', async () => {
    for (const command of [
      'mv notes.txt n2.txt',
      'mkdir -p build && mv notes.txt build/',
      'mv README.md docs.md',
    ]) {
      expect(await decisionOf(command, 'acceptEdits', CORPUS_RULES), command).toBe('allow');
    }
    expect(await decisionOf('mv config cfg', 'acceptEdits', CORPUS_RULES)).not.toBe('allow');
  });
});

describe('copying a folder that holds nothing a rule names', () => {
  it('cp -r of such a folder runs unasked in acceptEdits; one written in the same line is not listed', async () => {
    for (const command of ['cp -r config cfg2', 'mkdir -p build && cp -r src build/']) {
      expect(await decisionOf(command, 'acceptEdits', { deny: ['Read(.env)'] }), command).toBe('allow');
    }
    // The line writes into the tree it then reads: what is below may change before it is read.
    const rules = { deny: ['Read(.env)'] };
    expect(await decisionOf('touch config/.env && grep -r DB config', 'acceptEdits', rules)).toBe('ask');
    expect(await decisionOf('grep -r DB config', 'acceptEdits', rules)).toBe('allow');
  });
});

describe('numeric comparisons in test and [', () => {
  it('compare integers as written: a subscript in an operand runs nothing (only [[ evaluates arithmetic)', async () => {
    const sandbox = await createJustBashSandbox({ files: FIXTURE });
    try {
      const payload = `x='a[$(rm -f src/app.ts)]'`;
      for (const check of ['[ "$x" -lt 2 ]', 'test "$x" -eq 0', '[ 1 -ne "$x" ]']) {
        await sandbox.exec(`${payload}; ${check}`);
        expect((await sandbox.exec('test -e src/app.ts')).exitCode, check).toBe(0);
      }
      // The control: [[ does evaluate it, so the analysis must keep asking there.
      await sandbox.exec(`${payload}; [[ "$x" -lt 2 ]]`);
      expect((await sandbox.exec('test -e src/app.ts')).exitCode).toBe(1);
    } finally {
      await sandbox.dispose();
    }
  });

  it('so a quoted variable compared by test or [ runs in bypassPermissions beside a deny rule; [[ asks', async () => {
    const rules = { deny: ['Bash(rm:*)'] };
    for (const command of [
      'n=3; [ "$n" -lt 5 ] && echo small',
      'for i in 1 2 3; do test "$i" -ge 2 && echo "$i"; done',
      '[ "$#" -eq 0 ] || echo args',
    ]) {
      expect(await decisionOf(command, 'bypassPermissions', rules), command).toBe('allow');
    }
    expect(await decisionOf('[[ "$n" -lt 5 ]] && echo small', 'bypassPermissions', rules)).toBe('ask');
    // An unquoted word may split into an operator (-v, whose subscript is evaluated).
    expect(await decisionOf('[ $n -lt 5 ] && echo small', 'bypassPermissions', rules)).toBe('ask');
  });
});

describe('npm commands that run package scripts', () => {
  const pkg = (scripts: Record<string, string>) =>
    `echo '${JSON.stringify({ name: 'demo', scripts })}' > package.json`;

  it('run unasked in bypassPermissions beside deny rules when no rule names what the scripts do', async () => {
    const before = { setup: [pkg({ test: 'node --version && echo tested', build: 'mkdir -p dist' })] };
    for (const command of ['npm test', 'npm run build', 'npm install', 'npm run', 'npm ls']) {
      expect(await decisionOf(command, 'bypassPermissions', CORPUS_RULES, before), command).toBe('allow');
    }
  });

  it('an allow rule for the npm command covers its scripts (deny rules still meet them)', async () => {
    const before = { setup: [pkg({ test: 'echo tested', posttest: 'rm -rf dist' })] };
    const rules = { allow: ['Bash(npm test:*)'], deny: ['Bash(curl *)'] };
    expect(await decisionOf('npm test', 'default', rules, before)).toBe('allow');
    expect(await decisionOf('npm test', 'default', { ...rules, deny: ['Bash(rm:*)'] }, before)).toBe('deny');
  });

  it('scripts of a package the line writes first, or one found at run time, ask', async () => {
    const rules = { deny: ['Bash(curl *)'] };
    for (const command of [`${pkg({ test: 'echo hi' })} && npm test`, 'npm --prefix "$DIR" test']) {
      expect(await decisionOf(command, 'bypassPermissions', rules), command).toBe('ask');
    }
  });
});

describe("just-bash's own /dev files", () => {
  it('/dev/null, /dev/stdout and /dev/stderr as the sandbox made them stay everyday, in plan mode too', async () => {
    for (const command of [
      'ls 2>/dev/null',
      'grep -c alpha notes.txt < /dev/null',
      'cat notes.txt > /dev/null',
      'grep -r demo . &>/dev/null',
      'echo x > /dev/stdout',
      'echo x 2>/dev/stderr >&2',
      'grep - notes.txt',
      'echo x | cat -',
    ]) {
      expect(await decisionOf(command, 'plan', { deny: ['Edit(/config/**)'] }), command).toBe('allow');
    }
    expect(await decisionOf('mkdir -p build 2>/dev/null', 'acceptEdits', CORPUS_RULES)).toBe('allow');
  });

  it('a write to /dev/null counts where a link replaced it, or the line writes there', async () => {
    const rules = { deny: ['Edit(/config/**)'] };
    const link = { setup: ['rm -f /dev/null && ln -s /home/user/project/config/prod.env /dev/null'] };
    expect(await decisionOf('ls 2>/dev/null', 'bypassPermissions', rules, link)).toBe('deny');
    const relink = 'ln -sf /home/user/project/config/prod.env /dev/null; echo x > /dev/null';
    expect(await decisionOf(relink, 'bypassPermissions', rules)).toBe('deny');
    expect(await decisionOf('{ ls; } 2>/dev/null', 'plan', rules)).toBe('allow');
  });
});

describe('npm runs the scripts of its command only', () => {
  it('a clean script a deny rule names does not stop npm test, which does not run it', async () => {
    const before = {
      setup: [
        `echo '${JSON.stringify({ name: 'demo', scripts: { clean: 'rm -rf dist', test: 'echo tested' } })}' > package.json`,
      ],
    };
    const rules = { deny: ['Bash(rm:*)'] };
    expect(await decisionOf('npm test', 'bypassPermissions', rules, before)).toBe('allow');
    expect(await decisionOf('npm run clean', 'bypassPermissions', rules, before)).toBe('deny');
  });

  it("adding or removing a package does not run the project's install scripts; installing the project does", async () => {
    // npm 7+ runs the root's preinstall … postprepare only for an install that names no package
    // (lib/commands/install.js), and has no uninstall scripts; the sandbox's npm does the same
    // (runtimes/npm/install.ts, its tests). The registry here refuses at once: the install fails, after
    // the check, having run nothing of the project's.
    const hooks = { preinstall: 'rm -rf dist', postinstall: 'rm -rf dist', prepare: 'rm -rf dist' };
    const before = {
      setup: [
        `echo '${JSON.stringify({ name: 'demo', scripts: { ...hooks, test: 'echo tested' } })}' > package.json`,
      ],
    };
    const rules = { deny: ['Bash(rm:*)'] };
    const offline = '--registry http://127.0.0.1:9/';
    for (const command of [
      'npm uninstall left-pad',
      'npm remove left-pad lodash',
      `npm install ${offline} left-pad`,
      `npm i -D ${offline} left-pad@1`,
      `npm add ${offline} left-pad`,
      `npm install-test ${offline} left-pad`,
    ]) {
      expect(await decisionOf(command, 'bypassPermissions', rules, before), command).toBe('allow');
    }
    for (const command of ['npm install', 'npm i --save-dev', 'npm ci', 'npm install-test', 'npm cit']) {
      expect(await decisionOf(command, 'bypassPermissions', rules, before), command).toBe('deny');
    }
  });

  it("the project's dependencies scripts count for any install or uninstall (npm 8+ runs them, so WebContainer's npm does)", async () => {
    const before = {
      setup: [
        `echo '${JSON.stringify({ name: 'demo', scripts: { postdependencies: 'rm -rf dist' } })}' > package.json`,
      ],
    };
    const rules = { deny: ['Bash(rm:*)'] };
    for (const command of ['npm uninstall left-pad', 'npm install left-pad', 'npm install', 'npm ci']) {
      expect(await decisionOf(command, 'bypassPermissions', rules, before), command).toBe('deny');
    }
    expect(await decisionOf('npm test', 'bypassPermissions', rules, before)).toBe('allow');
  });

  it("on WebContainer too: a script's ls runs unasked where no node_modules/.bin up to / has one", async () => {
    // npm puts every node_modules/.bin from the package up to / first on PATH; above the workspace only
    // the VM can say what is there (the sandbox's existsAnywhere asks its node). The typed fake here.
    const sandbox = () => createWebContainerSandbox(new FakeWebContainer(), { files: FIXTURE });
    const setup = [`echo '${JSON.stringify({ name: 'demo', scripts: { test: 'ls src' } })}' > package.json`];
    const rules = { deny: ['Bash(curl *)'] };
    expect(await decisionOf('npm test', 'bypassPermissions', rules, { setup, sandbox })).toBe('allow');
    const planted = [...setup, 'mkdir -p /home/node_modules/.bin && echo x > /home/node_modules/.bin/ls'];
    expect(await decisionOf('npm test', 'bypassPermissions', rules, { setup: planted, sandbox })).toBe('ask');
  });
});
