/**
 * Cases found by red-team round 11: npm commands whose code the analysis (src/core/permissions/npm-scripts.ts)
 * does not see as the sandbox's npm runs it: the implicit `env` script (runScript adds it, the analysis's
 * implicit table does not), a package.json the analysis cannot read (a link out of the workspace) taken
 * for one npm refuses, and `npm exec -c`, whose PATH starts at the cwd's node_modules/.bin, not the
 * package folder's.
 */
import { APP, type BypassCase, LEAK, RULES } from './harness.ts';

const PKG = (scripts: Record<string, string>, dir = '.') =>
  `mkdir -p ${dir} && echo '${JSON.stringify({ name: 'demo', scripts })}' > ${dir}/package.json`;
const BIN = (dir: string, name: string, body: string) =>
  `mkdir -p ${dir} && printf '${body}\\n' > ${dir}/${name} && chmod +x ${dir}/${name}`;
/** RULES plus one allow rule (the deny rules still bind). */
const ALLOW = (rule: string) => ({ rules: { ...RULES, allow: [rule] } });

/**
 * npm run env: src/runtimes/npm/scripts.ts runScript adds `env: 'env'` when package.json has no env
 * script; the analysis's implicit table has only restart and start, so it reads no script at all, and
 * `env` is not checked against node_modules/.bin.
 */
export const NPM_IMPLICIT_ENV: BypassCase[] = [
  {
    what: 'npm run env runs the implicit env script, which runs node_modules/.bin/env',
    setup: [PKG({ x: 'true' }), BIN('node_modules/.bin', 'env', 'cat /home/user/project/.env')],
    command: 'npm run env',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'an allow rule for npm run env: the implicit script runs node_modules/.bin/env',
    setup: [PKG({ x: 'true' }), BIN('node_modules/.bin', 'env', 'cat /home/user/project/.env')],
    command: 'npm run env',
    ...ALLOW('Bash(npm run env)'),
    effect: LEAK,
    bypass: 'ask',
  },
];

/**
 * package.json is a link to a file outside the workspace: Sandbox.readFile refuses it, the analysis
 * took the failure for "npm refuses a package.json it cannot parse" and read no script, but npm reads
 * it through the link and runs its scripts (now: scripts the analysis cannot read, which asks).
 */
export const NPM_UNREADABLE_PACKAGE: BypassCase[] = [
  {
    what: 'package.json links to /tmp/p.json, whose test script reads .env',
    setup: [
      `echo '${JSON.stringify({ name: 'demo', scripts: { test: 'cat .env' } })}' > /tmp/p.json`,
      'ln -sf /tmp/p.json package.json',
    ],
    command: 'npm test',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'an allow rule for npm test; package.json links to /tmp/p.json, whose test script runs rm',
    setup: [
      `echo '${JSON.stringify({ name: 'demo', scripts: { test: 'rm -f src/app.ts' } })}' > /tmp/p.json`,
      'ln -sf /tmp/p.json package.json',
    ],
    command: 'npm test',
    ...ALLOW('Bash(npm test)'),
    effect: APP,
    bypass: 'ask',
  },
];

/**
 * npm exec -c runs its line in the cwd with the cwd's node_modules/.bin folders first on PATH
 * (src/runtimes/npm/exec.ts runExec: binPaths(host.cwd)); the analysis checks the package folder's.
 */
export const NPM_EXEC_CWD_BIN: BypassCase[] = [
  {
    what: "cd sub && npm exec -c 'cat README.md' runs sub/node_modules/.bin/cat",
    setup: [BIN('sub/node_modules/.bin', 'cat', 'rm -f /home/user/project/src/app.ts')],
    command: "cd sub && npm exec -c 'cat /home/user/project/README.md'",
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'an allow rule for npm exec: sub/node_modules/.bin/cat runs for the line',
    setup: [BIN('sub/node_modules/.bin', 'cat', 'rm -f /home/user/project/src/app.ts')],
    command: "cd sub && npm exec -c 'cat /home/user/project/README.md'",
    ...ALLOW('Bash(npm exec:*)'),
    effect: APP,
    bypass: 'ask',
  },
];
