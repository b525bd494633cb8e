/**
 * node:test in the real QuickJS engine, compared with what Node prints for the same test files
 * (goldens recorded from Node, see testing/node-goldens.ts), plus the `node --test` runner seam.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { GuestHarness } from './testing/harness.ts';
import { normalizeReport, REGENERATE, recordWithNode, writeGolden } from './testing/node-goldens.ts';

const FIXTURES = new URL('./testing/fixtures/node-test/', import.meta.url).pathname;
const PROJECT = '/home/user/project';

let harness: GuestHarness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

/** Runs a fixture as the main script of a guest process; returns its output and exit code. */
async function runFixture(
  name: string,
  execArgv: string[] = [],
): Promise<{ output: string; exitCode: number }> {
  harness = await GuestHarness.create();
  harness.eval(`process.execArgv = ${JSON.stringify(execArgv)}`);
  const source = readFileSync(`${FIXTURES}${name}`, 'utf8');
  harness.eval(source, `${PROJECT}/${name}`);
  const exitCode = harness.runToExit();
  return { output: harness.takeOutput(), exitCode };
}

/**
 * Plays the engine's part in `node --test`: gives the guest the files' sources and calls
 * internal/test/runner's run() with a load() that runs each as a CommonJS main module. `guestLoad`
 * may replace that load(). Returns stdout, stderr (kept apart), the exit code and run()'s result.
 */
async function runTestFiles(
  files: Record<string, string>,
  options: { only?: boolean; guestLoad?: string } = {},
): Promise<{ stdout: string; stderr: string; exitCode: number; result: unknown }> {
  harness = await GuestHarness.create();
  harness.eval(`
    globalThis.__stderr = '';
    process.stderr.write = (s) => { globalThis.__stderr += s; return true; };
    const sources = ${JSON.stringify(files)};
    const load = ${
      options.guestLoad ??
      `(file) => {
        const module = { exports: {} };
        __hostCompile(sources[file], file).call(module.exports, module.exports, require, module, file, '${PROJECT}');
      }`
    };
    require('internal/test/runner')
      .run({ files: Object.keys(sources), load, cwd: '${PROJECT}', only: ${!!options.only} })
      .then((r) => { globalThis.__result = r; });
  `);
  const exitCode = harness.runToExit();
  const stderr = harness.eval('globalThis.__stderr') as string;
  const result = harness.eval('globalThis.__result');
  return { stdout: harness.takeOutput(), stderr, exitCode, result };
}

function fixtureSources(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((n) => [`${PROJECT}/${n}`, readFileSync(`${FIXTURES}runner/${n}`, 'utf8')]),
  );
}

describe('node:test reports as Node does', () => {
  for (const name of [
    'basic.test.js',
    'hooks.test.js',
    'lifecycle.test.js',
    'mock.test.js',
    'assert.test.js',
    'late-error.test.js',
    'console.test.js',
  ]) {
    it(name, async () => {
      const golden = `${FIXTURES}${name.replace(/\.js$/, '.spec.txt')}`;
      if (REGENERATE) writeGolden(golden, recordWithNode(`${FIXTURES}${name}`));
      const { output, exitCode } = await runFixture(name);
      expect(`${normalizeReport(output)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
    });
  }
});

describe('--test-only', () => {
  it('runs only the tests marked only, as Node does', async () => {
    const golden = `${FIXTURES}only.test.flag.spec.txt`;
    if (REGENERATE) {
      writeGolden(golden, recordWithNode(`${FIXTURES}only.test.js`, ['--test-only', '--test-reporter=spec']));
    }
    const { output, exitCode } = await runFixture('only.test.js', ['--test-only']);
    expect(`${normalizeReport(output)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
  });

  it('without the flag runs everything and says that only needs it', async () => {
    const golden = `${FIXTURES}only.test.spec.txt`;
    if (REGENERATE) writeGolden(golden, recordWithNode(`${FIXTURES}only.test.js`));
    const { output, exitCode } = await runFixture('only.test.js');
    expect(`${normalizeReport(output)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
  });

  it('describe.only runs its tests unless some are marked only (Node 22)', async () => {
    const file = `${PROJECT}/only-suite.test.js`;
    // The .only calls below are guest code: the file our node:test runs, not tests of this suite.
    const { stdout, exitCode } = await runTestFiles(
      {
        [file]: `const { describe, it, test } = require('node:test');
          test('outside', () => {});
          describe.only('all run', () => { it('x', () => {}); it('y', () => {}); }); // guest code: only on purpose, what --test-only is checked on
          describe('has only inside', () => { it('skipped', () => {}); it.only('picked', () => {}); }); // guest code: only on purpose`,
      },
      { only: true },
    );
    expect(normalizeReport(stdout)).toContain(
      [
        "﹣ outside (Nms) # 'only' option not set",
        '▶ all run',
        '  ✔ x (Nms)',
        '  ✔ y (Nms)',
        '✔ all run (Nms)',
        '▶ has only inside',
        "  ﹣ skipped (Nms) # 'only' option not set",
        '  ✔ picked (Nms)',
        '✔ has only inside (Nms)',
        'ℹ tests 5',
      ].join('\n'),
    );
    expect(exitCode).toBe(0);
  });
});

describe('--test-name-pattern', () => {
  it('skips the tests whose names do not match, as Node does', async () => {
    const golden = `${FIXTURES}pattern.test.spec.txt`;
    if (REGENERATE) {
      writeGolden(
        golden,
        recordWithNode(`${FIXTURES}pattern.test.js`, ['--test-name-pattern=/MUL/i', '--test-reporter=spec']),
      );
    }
    const { output, exitCode } = await runFixture('pattern.test.js', ['--test-name-pattern=/MUL/i']);
    expect(`${normalizeReport(output)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('node --test (internal/test/runner)', () => {
  it('runs the files in turn into one summary, as Node does', async () => {
    const names = ['a.test.js', 'b.test.js', 'c.test.js'];
    const golden = `${FIXTURES}runner/run.spec.txt`;
    if (REGENERATE) {
      writeGolden(
        golden,
        recordWithNode(
          names.map((n) => `${FIXTURES}runner/${n}`),
          ['--test', '--test-concurrency=1', '--test-reporter=spec'],
        ),
      );
    }
    const { stdout, stderr, exitCode, result } = await runTestFiles(fixtureSources(names));
    expect(`${normalizeReport(stdout)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
    expect(stderr).toBe('');
    expect(result).toMatchObject({ success: false, counters: { tests: 8, suites: 1, passed: 5, failed: 1 } });
  });

  it('reports a file that throws while loading, and goes on with the next', async () => {
    const { stdout, stderr, exitCode } = await runTestFiles({
      [`${PROJECT}/test/broken.test.js`]: `require('node:test')('never runs', () => {});\nthrow new Error('top-level boom');`,
      [`${PROJECT}/test/fine.test.js`]: `require('node:test')('fine', () => {});`,
    });
    expect(stderr).toMatch(/^Error: top-level boom\n\s+at /);
    expect(normalizeReport(stdout)).toBe(
      [
        `✖ ${PROJECT}/test/broken.test.js (Nms)`,
        "  'test failed'",
        '',
        '✔ fine (Nms)',
        'ℹ tests 2',
        'ℹ suites 0',
        'ℹ pass 1',
        'ℹ fail 1',
        'ℹ cancelled 0',
        'ℹ skipped 0',
        'ℹ todo 0',
        'ℹ duration_ms N',
        '',
        '✖ failing tests:',
        '',
        'test at test/broken.test.js:1:1',
        `✖ ${PROJECT}/test/broken.test.js (Nms)`,
        "  'test failed'",
        '',
      ].join('\n'),
    );
    expect(exitCode).toBe(1);
  });

  it('reports a file whose loading never settles instead of hanging', async () => {
    const { stdout, stderr, exitCode } = await runTestFiles(
      {
        [`${PROJECT}/tla.test.mjs`]: '',
        [`${PROJECT}/next.test.js`]: `require('node:test')('next', () => {});`,
      },
      {
        guestLoad: `(file) => file.endsWith('.mjs') ? new Promise(() => {}) : __hostCompile(sources[file], file).call({}, {}, require, { exports: {} }, file, '')`,
      },
    );
    expect(stderr).toContain('the test file never finished loading');
    expect(normalizeReport(stdout)).toContain(
      `✖ ${PROJECT}/tla.test.mjs (Nms)\n  'test failed'\n\n✔ next (Nms)\nℹ tests 2`,
    );
    expect(exitCode).toBe(1);
  });

  it('cancels a test that can never finish and moves on to the next file', async () => {
    const { stdout, exitCode } = await runTestFiles({
      [`${PROJECT}/hang.test.js`]: `const test = require('node:test');
        test('hangs', () => new Promise(() => {}));
        test('queued behind it', () => {});`,
      [`${PROJECT}/after.test.js`]: `require('node:test')('after', () => {});`,
    });
    expect(normalizeReport(stdout)).toContain(
      [
        '✖ hangs (Nms)',
        "  'Promise resolution is still pending but the event loop has already resolved'",
        '',
        '✖ queued behind it',
        "  'Promise resolution is still pending but the event loop has already resolved'",
        '',
        '✔ after (Nms)',
        'ℹ tests 3',
        'ℹ suites 0',
        'ℹ pass 1',
        'ℹ fail 0',
        'ℹ cancelled 2',
      ].join('\n'),
    );
    expect(exitCode).toBe(1);
  });

  it('passes with exit code 0 and rejects a call without load()', async () => {
    const { stdout, exitCode, result } = await runTestFiles({
      [`${PROJECT}/ok.test.js`]: `require('node:test')('ok', () => {});`,
    });
    expect(normalizeReport(stdout)).toContain('✔ ok (Nms)\nℹ tests 1');
    expect(exitCode).toBe(0);
    expect(result).toMatchObject({ success: true });
    expect(() => harness?.eval(`require('internal/test/runner').run({ files: [] })`)).not.toThrow();
    expect(() => harness?.evalAsync(`require('internal/test/runner').run({ files: ['x'] })`)).toThrow(
      /The "options.load" property must be of type function/,
    );
  });
});
