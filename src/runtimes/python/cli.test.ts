import { describe, expect, it } from 'vitest';
import { type PythonPlan, type PythonRun, parsePythonArgs } from './cli.ts';
import { PYTHON_VERSION } from './version.ts';

function runOf(plan: PythonPlan): PythonRun {
  if (plan.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(plan)}`);
  return plan.run;
}

describe("python3's command line", () => {
  it('finds the program: a file, -c, -m, - and nothing (stdin); the rest is sys.argv[1:]', () => {
    expect(runOf(parsePythonArgs(['app.py', '-c', 'x']))).toMatchObject({
      mode: 'file',
      target: 'app.py',
      args: ['-c', 'x'],
    });
    expect(runOf(parsePythonArgs(['-c', 'print(1)', 'a', '-m']))).toMatchObject({
      mode: 'code',
      target: 'print(1)',
      args: ['a', '-m'],
    });
    expect(runOf(parsePythonArgs(['-m', 'json.tool', 'f.json']))).toMatchObject({
      mode: 'module',
      target: 'json.tool',
      args: ['f.json'],
    });
    expect(runOf(parsePythonArgs(['-', 'x']))).toMatchObject({ mode: 'stdin', target: '', args: ['x'] });
    expect(runOf(parsePythonArgs([]))).toMatchObject({ mode: 'stdin', args: [] });
    expect(runOf(parsePythonArgs(['--', '-weird.py']))).toMatchObject({ mode: 'file', target: '-weird.py' });
  });

  it('reads grouped options and option values as CPython does', () => {
    expect(runOf(parsePythonArgs(['-uBc', 'pass']))).toMatchObject({
      mode: 'code',
      target: 'pass',
      unbuffered: true,
    });
    expect(runOf(parsePythonArgs(['-cpass']))).toMatchObject({ mode: 'code', target: 'pass' });
    expect(runOf(parsePythonArgs(['-Werror', '-W', 'ignore::DeprecationWarning', 'a.py']))).toMatchObject({
      warnings: ['error', 'ignore::DeprecationWarning'],
    });
    expect(runOf(parsePythonArgs(['-OO', '-X', 'utf8', '-I', 'a.py']))).toMatchObject({
      optimize: 2,
      xOptions: ['utf8'],
      ignoreEnvironment: true,
      safePath: true,
    });
  });

  it('honours PYTHON* variables unless -E or -I', () => {
    const env = { PYTHONUNBUFFERED: '1', PYTHONWARNINGS: 'error,ignore::UserWarning', PYTHONSAFEPATH: '1' };
    expect(runOf(parsePythonArgs(['a.py'], env))).toMatchObject({
      unbuffered: true,
      safePath: true,
      warnings: ['error', 'ignore::UserWarning'],
    });
    expect(runOf(parsePythonArgs(['-E', 'a.py'], env))).toMatchObject({
      unbuffered: false,
      safePath: false,
      warnings: [],
    });
  });

  it('answers --version and --help itself, and refuses bad options with exit 2', () => {
    expect(parsePythonArgs(['--version'])).toEqual({
      kind: 'reply',
      stdout: `Python ${PYTHON_VERSION}\n`,
      stderr: '',
      exitCode: 0,
    });
    expect(parsePythonArgs(['-V', '-c', 'pass'])).toMatchObject({
      kind: 'reply',
      stdout: `Python ${PYTHON_VERSION}\n`,
    });
    expect(parsePythonArgs(['-VV'])).toMatchObject({
      kind: 'reply',
      stdout: expect.stringContaining('Pyodide'),
    });
    expect(parsePythonArgs(['-h'])).toMatchObject({
      kind: 'reply',
      exitCode: 0,
      stdout: expect.stringContaining('usage: python3'),
    });
    expect(parsePythonArgs(['-z'])).toMatchObject({
      kind: 'reply',
      exitCode: 2,
      stderr: expect.stringContaining('Unknown option: -z'),
    });
    expect(parsePythonArgs(['-c'])).toMatchObject({
      kind: 'reply',
      exitCode: 2,
      stderr: expect.stringContaining('Argument expected for the -c option'),
    });
    expect(parsePythonArgs(['--frobnicate'])).toMatchObject({ kind: 'reply', exitCode: 2 });
    expect(parsePythonArgs(['-i', 'a.py'])).toMatchObject({
      kind: 'reply',
      exitCode: 2,
      stderr: expect.stringContaining('interactive'),
    });
  });
});
