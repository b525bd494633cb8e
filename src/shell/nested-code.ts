/**
 * Code a command's own words carry, which the shell or the program runs: `env -S` text, `sh -c` text or a
 * here-doc fed to a shell, `eval`, `trap` actions, `alias` values, `watch`'s command line, `find -exec`
 * commands, inline interpreter code. Each is walked where it runs, or, when the line does not show it,
 * makes the command opaque. The walker (walker.ts) owns the scope and the entries; this module decides what
 * of a command's words is code and from where it runs.
 */
import { chdirScope, copyScope, type Scope } from './entries.ts';
import { interpreterCode, SHELLS, shellInvocation } from './interpreters.ts';
import type { RedirectIo } from './redirects.ts';
import type { ShellWord } from './types.ts';
import { findExecCommands, type Unwrapped } from './wrappers.ts';

/** What the walker offers this module: walking text, recording a command run later, names it defines. */
export interface NestedHost {
  /** Parses and walks a script text from `scope`. */
  text(line: string, scope: Scope, depth: number): void;
  /** A command another one runs with arguments added at run time: its own entry. */
  inner(words: readonly ShellWord[], written: readonly ShellWord[], scope: Scope, depth: number): void;
  /** `alias NAME=BODY`: the name now runs BODY (null when the body is only known at run time). */
  defineAlias(name: string, body: string | null): void;
  /**
   * The line sets these variables, or may set any (eval or source of text it does not show, `env -i`):
   * as its own assignments do, they change what `~` and program names mean (session.ts).
   */
  assign(names: readonly string[] | 'any'): void;
}

export interface NestedCode {
  /** The command runs code the line does not show. */
  opaque: boolean;
  /** The command only runs the code walked here (its own entry is a container). */
  container: boolean;
  /** The command changes the shell's state (trap, alias). */
  changesState: boolean;
  /** Commands it runs as written (`find -exec rm {} ;`), for allow rules. */
  extraForms: ShellWord[][];
}

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/** Walks the code in a command's words (`inner`, after wrappers; `un` what unwrapping found). */
export function nestedCode(
  host: NestedHost,
  inner: readonly ShellWord[],
  un: Unwrapped,
  io: RedirectIo,
  scope: Scope,
  depth: number,
): NestedCode {
  // `env -C DIR sh -c …`: the code runs from DIR (a child's cd, not the shell's).
  scope = chdirScope(scope, un.chdir);
  const name = inner[0] && !inner[0].dynamic ? inner[0].text : '';
  const out: NestedCode = { opaque: false, container: false, changesState: false, extraForms: [] };
  if (un.splitString) {
    if (un.splitString.dynamic || inner.some((w) => w.dynamic)) out.opaque = true;
    else {
      host.text([un.splitString.text, ...inner.map((w) => quote(w.text))].join(' '), copyScope(scope), depth);
      out.container = true;
    }
  } else if (SHELLS.has(name)) {
    const inv = shellInvocation(inner);
    if (inv.kind === 'text') {
      if (inv.text.dynamic) out.opaque = true;
      else {
        host.text(inv.text.text, copyScope(scope), depth);
        out.container = true;
      }
    } else if (inv.kind === 'stdin' && io.stdin !== null) {
      host.text(io.stdin, copyScope(scope), depth);
      out.container = true;
    } else {
      // just-bash's shell runs a script file where bash runs a text or standard input: both are read.
      if (inv.kind === 'file' && inv.text && !inv.text.dynamic)
        host.text(inv.text.text, copyScope(scope), depth);
      if (inv.kind === 'file' && inv.stdin && io.stdin !== null) host.text(io.stdin, copyScope(scope), depth);
      out.opaque = true;
    }
  } else if (name === 'eval') {
    // `eval -- TEXT`: the `--` ends eval's (absent) options.
    const args = inner.slice(inner[1]?.text === '--' && !inner[1].dynamic ? 2 : 1);
    if (args.some((w) => w.dynamic)) {
      out.opaque = true;
      host.assign('any');
    } else {
      // eval runs in this shell: its cd and assignments count here.
      host.text(args.map((w) => w.text).join(' '), scope, depth);
      out.container = true;
    }
  } else if (name === 'source' || name === '.') {
    out.opaque = true;
    host.assign('any');
  } else if (name === 'trap') {
    // `trap -- ACTION SIGNALS`: after `--` the action may look like an option; `-` alone resets.
    const k = inner[1]?.text === '--' && !inner[1].dynamic ? 2 : 1;
    const action = inner[k];
    out.changesState = true;
    if (action && (action.dynamic || (k === 2 ? action.text !== '-' : !action.text.startsWith('-')))) {
      if (action.dynamic) out.opaque = true;
      // It runs later (at EXIT, on a signal), from wherever the shell is by then.
      else host.text(action.text, { cdTrail: null }, depth);
    }
  } else if (name === 'alias') {
    out.changesState = true;
    for (const w of inner.slice(1)) {
      const eq = w.text.indexOf('=');
      if (eq < 0) continue;
      if (w.dynamic) {
        host.defineAlias(w.text.slice(0, eq), null);
        out.opaque = true;
      } else {
        host.defineAlias(w.text.slice(0, eq), w.text.slice(eq + 1));
        host.text(w.text.slice(eq + 1), copyScope(scope), depth);
      }
    }
  } else if (name === 'watch') {
    // watch [-n SECONDS] [-d] ... COMMAND: the rest is a command line.
    const rest: ShellWord[] = [];
    for (let k = 1; k < inner.length; k++) {
      const t = inner[k].text;
      if (rest.length === 0 && /^(-n|--interval|-q|--equexit)$/.test(t)) k++;
      else if (rest.length > 0 || !t.startsWith('-')) rest.push(inner[k]);
    }
    if (rest.some((w) => w.dynamic)) out.opaque = true;
    else if (rest.length > 0) host.text(rest.map((w) => w.text).join(' '), copyScope(scope), depth);
  } else if (name === 'find') {
    for (const cmd of findExecCommands(inner)) {
      out.extraForms.push(cmd);
      // As written (`rm {}`), for allow rules; `{}` stays a run-time word for everything else.
      const asWritten = cmd.map((w) => (w.dynamic && w.text.includes('{}') ? { ...w, dynamic: false } : w));
      // -execdir runs it in each found file's directory: where is only known at run time.
      host.inner(cmd, asWritten, cmd.inDir ? { cdTrail: null } : scope, depth);
    }
  } else if (interpreterCode(inner) !== null) {
    // Inline code (`node -e`, `python3 -c`), code from standard input or a script file (as for a
    // shell's script): code the analysis cannot see, which may do anything.
    out.opaque = true;
  }
  return out;
}
