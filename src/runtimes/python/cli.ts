/**
 * `python3`'s command line, as CPython reads it: options first (single letters may be grouped, `-c`,
 * `-m`, `-W` and `-X` take the rest of their group or the next word), then the program — `-c CODE`,
 * `-m MODULE`, a file, or `-` / nothing for a script on stdin — and everything after it belongs to the
 * program's `sys.argv`. Options that make no sense here (the interactive prompt, hash-based pycs) are
 * refused with a clear message; harmless ones are accepted.
 */
import { PYODIDE_VERSION, PYTHON_VERSION } from './version.ts';

export type PythonMode = 'file' | 'code' | 'module' | 'stdin';

/** What the worker runs. Plain data (it travels in the run request's args, re-parsed there). */
export interface PythonRun {
  mode: PythonMode;
  /** The file (as given), the code of -c, or the module of -m; empty for stdin. */
  target: string;
  /** `sys.argv[1:]`. */
  args: string[];
  /** -u or PYTHONUNBUFFERED: stdout and stderr are not buffered at all. */
  unbuffered: boolean;
  /** -E / -I: PYTHON* variables are ignored. */
  ignoreEnvironment: boolean;
  /** -P / -I / PYTHONSAFEPATH: the script's folder (or the cwd) is not put first on sys.path. */
  safePath: boolean;
  /** -O (1) / -OO (2): asserts (and docstrings) are dropped from the program's own code. */
  optimize: number;
  /** -W options, in order. */
  warnings: string[];
  /** -X options (kept in sys._xoptions). */
  xOptions: string[];
}

export type PythonPlan =
  | { kind: 'run'; run: PythonRun }
  /** The host answers these without starting the interpreter. */
  | { kind: 'reply'; stdout: string; stderr: string; exitCode: number };

/** CPython's usage line, printed with a bad option (exit 2). */
const USAGE = 'usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...\n';
const TRY_HELP = "Try `python -h' for more information.\n";

/**
 * The help text. Its first line names the build's Python gate; the bundle test looks for that phrase
 * to prove a build without the gate has none of this code.
 */
export const PYTHON_HELP = `${USAGE}python3 in tabcode (tabcode python gate): CPython ${PYTHON_VERSION} on Pyodide ${PYODIDE_VERSION}, in a
Web Worker of this page, with the standard library only (no pip, no packages, no network, no threads or
subprocesses). Files are the sandbox's: the workspace and /tmp.

Options (before the program):
-c cmd   program passed in as a string (terminates option list)
-m mod   run library module as a script (terminates option list)
-u       unbuffered stdout and stderr
-B -d -q -s -S -v -b   accepted (no effect here)
-E       ignore PYTHON* environment variables (PYTHONPATH, PYTHONUNBUFFERED, ...)
-I       isolate: -E -P -s
-O, -OO  remove assert statements (and docstrings) from the program's code
-P       don't prepend the script's directory (or the cwd) to sys.path
-W arg   warning control (as python -W)
-X opt   implementation option (kept in sys._xoptions)
-V, --version   print the Python version (-VV: and the engine)
-h, --help      this text
file     program read from a script file
-        program read from stdin (the default when stdin is a pipe)
arg ...  arguments passed to the program in sys.argv[1:]
`;

const ACCEPTED = new Set(['B', 'd', 'q', 's', 'S', 'v', 'b', 'R']);

function usageError(message: string): PythonPlan {
  return { kind: 'reply', stdout: '', stderr: `${message}\n${USAGE}${TRY_HELP}`, exitCode: 2 };
}

/**
 * Reads `python3`'s arguments (after the command name) with the program's environment (PYTHON*
 * variables). Never throws: a bad command line is a `reply` with CPython's message and exit code 2.
 */
export function parsePythonArgs(argv: string[], env: Record<string, string> = {}): PythonPlan {
  const run: PythonRun = {
    mode: 'stdin',
    target: '',
    args: [],
    unbuffered: false,
    ignoreEnvironment: false,
    safePath: false,
    optimize: 0,
    warnings: [],
    xOptions: [],
  };
  let versionLevel = 0;
  let i = 0;
  for (; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') {
      i++;
      break;
    }
    if (word === '-' || !word.startsWith('-')) break;
    if (word.startsWith('--')) {
      if (word === '--version') versionLevel++;
      else if (
        word === '--help' ||
        word === '--help-all' ||
        word === '--help-env' ||
        word === '--help-xoptions'
      )
        return { kind: 'reply', stdout: PYTHON_HELP, stderr: '', exitCode: 0 };
      else if (word === '--check-hash-based-pycs') i++;
      else return usageError(`unknown option ${word}`);
      continue;
    }
    // A group of single-letter options: -uBc "code", -Werror, -OO.
    for (let j = 1; j < word.length; j++) {
      const letter = word[j];
      if (letter === 'c' || letter === 'm' || letter === 'W' || letter === 'X') {
        let value = word.slice(j + 1);
        if (!value) {
          if (i + 1 >= argv.length) return usageError(`Argument expected for the -${letter} option`);
          value = argv[++i];
        }
        if (letter === 'W') run.warnings.push(value);
        else if (letter === 'X') run.xOptions.push(value);
        else {
          run.mode = letter === 'c' ? 'code' : 'module';
          run.target = letter === 'c' ? value : value.trim();
          run.args = argv.slice(i + 1);
          return finish(run, env, versionLevel);
        }
        break;
      }
      if (letter === 'u') run.unbuffered = true;
      else if (letter === 'E') run.ignoreEnvironment = true;
      else if (letter === 'P') run.safePath = true;
      else if (letter === 'I') {
        run.ignoreEnvironment = true;
        run.safePath = true;
      } else if (letter === 'O') run.optimize = Math.min(2, run.optimize + 1);
      else if (letter === 'V') versionLevel++;
      else if (letter === 'h' || letter === '?')
        return { kind: 'reply', stdout: PYTHON_HELP, stderr: '', exitCode: 0 };
      else if (letter === 'i')
        return {
          kind: 'reply',
          stdout: '',
          stderr:
            'python3: -i (the interactive prompt) is not available in tabcode: run a file, -c CODE or -m MODULE\n',
          exitCode: 2,
        };
      else if (ACCEPTED.has(letter)) continue;
      else return usageError(`Unknown option: -${letter}`);
    }
  }
  if (versionLevel > 0) return finish(run, env, versionLevel);
  if (i < argv.length) {
    const word = argv[i];
    run.mode = word === '-' ? 'stdin' : 'file';
    run.target = word === '-' ? '' : word;
    run.args = argv.slice(i + 1);
  }
  return finish(run, env, versionLevel);
}

function finish(run: PythonRun, env: Record<string, string>, versionLevel: number): PythonPlan {
  if (versionLevel === 1)
    return { kind: 'reply', stdout: `Python ${PYTHON_VERSION}\n`, stderr: '', exitCode: 0 };
  if (versionLevel > 1)
    return {
      kind: 'reply',
      stdout: `Python ${PYTHON_VERSION} (Pyodide ${PYODIDE_VERSION}, WebAssembly, in tabcode)\n`,
      stderr: '',
      exitCode: 0,
    };
  if (run.mode === 'module' && !run.target) return usageError('Argument expected for the -m option');
  if (!run.ignoreEnvironment) {
    if (env.PYTHONUNBUFFERED) run.unbuffered = true;
    if (env.PYTHONSAFEPATH) run.safePath = true;
    if (env.PYTHONOPTIMIZE && run.optimize === 0) run.optimize = Math.min(2, Number(env.PYTHONOPTIMIZE) || 1);
    if (env.PYTHONWARNINGS)
      run.warnings.unshift(
        ...env.PYTHONWARNINGS.split(',')
          .map((w) => w.trim())
          .filter(Boolean),
      );
  }
  return { kind: 'run', run };
}
