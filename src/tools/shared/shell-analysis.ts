/**
 * Bash's permission matcher: parses a command line with just-bash's own parser (the one that runs it)
 * and splits it into every command it may run: `&&`, `||`, `;`, pipes, subshells, groups, loops,
 * functions, `$(...)`, backticks, process substitution, `bash -c` / `sh -c` text, here-docs fed to a
 * shell, `eval`, `trap`, `alias` values, `env -S`, wrappers (`env`, `command`, `timeout`, `xargs`...)
 * and `find -exec`. Redirections to files are writes. The result is plain data for the permission
 * engine (src/core/permissions), which never parses shell itself.
 *
 * The parser comes from just-bash's browser entry (`new Bash().transform()` returns the AST), loaded
 * lazily so the page's first paint does not wait for it. Anything the parser rejects, or any construct
 * this walker does not know, makes the line unparseable, and the engine asks.
 */
import type { CommandNode, ScriptNode, SimpleCommandNode, StatementNode, WordNode } from 'just-bash';
import { normalizeAbsolute } from '../../core/permissions/paths.ts';
import type {
  BashPermissionMatcher,
  ShellPathRef,
  ShellSubcommand,
  ShellWordInfo,
} from '../../core/permissions/types.ts';
import { programProblem, type ShellWord } from './command-classify.ts';
import { denyForms, isRecursive } from './shell-forms.ts';
import {
  findExecCommands,
  inlineCodeSpawns,
  SHELLS,
  shellInvocation,
  stdinCodeSpawns,
  unwrapCommand,
} from './shell-wrappers.ts';

type Redirection = SimpleCommandNode['redirections'][number];

class Unparseable extends Error {}

let parserPromise: Promise<(line: string) => ScriptNode> | undefined;

/** just-bash's parser, loaded once. */
function loadParser(): Promise<(line: string) => ScriptNode> {
  parserPromise ??= import('just-bash/browser').then(({ Bash }) => {
    const bash = new Bash();
    return (line: string) => bash.transform(line).ast;
  });
  return parserPromise;
}

/** Deepest nesting of scripts in scripts (`bash -c "eval '...'"`) before the line counts as unparseable. */
const MAX_DEPTH = 12;
/** Most sub-commands one line may hold before it counts as unparseable. */
const MAX_SUBCOMMANDS = 500;

/** Programs whose arguments never name files (so file rules ignore them). */
const NO_FILE_ARGS = new Set(
  (
    'echo printf true false pwd seq date sleep yes test [ expr export unset alias unalias type which hash ' +
    'let local declare typeset readonly shift return exit break continue set shopt history jobs wait kill ' +
    'trap eval command builtin cd pushd popd umask getopts read'
  ).split(' '),
);

/** Programs whose first operand is a pattern or a script, not a file. */
const SCRIPT_FIRST = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'jq',
]);

/** Commands acceptEdits allows on workspace paths. */
const FILE_ONLY = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm']);

/** Commands that only move the shell (read-only for permission purposes). */
const NAVIGATION = new Set(['cd', 'pushd', 'popd']);

/** Redirection targets that are not files. */
const NOT_FILES = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;

interface Scope {
  /** Static `cd` targets that may have run (null: a cd to a place only known at run time). */
  cdTrail: string[] | null;
}

const copyScope = (s: Scope): Scope => ({ cdTrail: s.cdTrail ? [...s.cdTrail] : null });

/** A word's text and whether it is only known at run time. */
function wordInfo(word: WordNode): ShellWordInfo {
  let text = '';
  let dynamic = false;
  let glob = false;
  const visit = (parts: WordNode['parts']): void => {
    for (const p of parts) {
      switch (p.type) {
        case 'Literal':
        case 'SingleQuoted':
        case 'Escaped':
          text += p.value;
          break;
        case 'DoubleQuoted':
          visit(p.parts);
          break;
        case 'TildeExpansion':
          text += `~${p.user ?? ''}`;
          break;
        case 'Glob':
          text += p.pattern;
          glob = true;
          break;
        case 'ParameterExpansion':
          text += `$${p.parameter}`;
          dynamic = true;
          break;
        case 'CommandSubstitution':
          text += '$(…)';
          dynamic = true;
          break;
        case 'ArithmeticExpansion':
          text += '$((…))';
          dynamic = true;
          break;
        case 'ProcessSubstitution':
          text += '/dev/fd/…';
          dynamic = true;
          break;
        case 'BraceExpansion':
          text += '{…}';
          dynamic = true;
          break;
        default:
          throw new Unparseable(`unknown word part ${(p as { type: string }).type}`);
      }
    }
  };
  visit(word.parts);
  return { text, dynamic, glob };
}

/**
 * Scripts nested anywhere in a node (command and process substitutions, `$(...)` inside arithmetic),
 * without descending into them.
 */
function nestedScripts(node: unknown, out: Array<ScriptNode | string>): void {
  if (Array.isArray(node)) {
    for (const item of node) nestedScripts(item, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as { type?: string; body?: ScriptNode; command?: string };
  if ((n.type === 'CommandSubstitution' || n.type === 'ProcessSubstitution') && n.body) {
    out.push(n.body);
    return;
  }
  if (n.type === 'ArithCommandSubst' && typeof n.command === 'string') {
    out.push(n.command);
    return;
  }
  for (const value of Object.values(node)) nestedScripts(value, out);
}

class Walker {
  readonly subcommands: ShellSubcommand[] = [];
  constructor(private readonly parse: (line: string) => ScriptNode) {}

  script(node: ScriptNode, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) throw new Unparseable('scripts nested too deeply');
    this.statements(node.statements, scope, depth);
  }

  text(line: string, scope: Scope, depth: number): void {
    let ast: ScriptNode;
    try {
      ast = this.parse(line);
    } catch (err) {
      throw new Unparseable(err instanceof Error ? err.message : String(err));
    }
    this.script(ast, scope, depth + 1);
  }

  nested(node: unknown, scope: Scope, depth: number): void {
    const found: Array<ScriptNode | string> = [];
    nestedScripts(node, found);
    for (const s of found) {
      if (typeof s === 'string') this.text(s, copyScope(scope), depth);
      else this.script(s, copyScope(scope), depth + 1);
    }
  }

  statements(list: readonly StatementNode[], scope: Scope, depth: number): void {
    for (const st of list) {
      if (st.deferredError) throw new Unparseable(st.deferredError.message);
      for (const pipeline of st.pipelines) {
        const sub = pipeline.commands.length > 1;
        for (const cmd of pipeline.commands) this.command(cmd, sub ? copyScope(scope) : scope, depth);
      }
    }
  }

  command(node: CommandNode, scope: Scope, depth: number): void {
    if (this.subcommands.length > MAX_SUBCOMMANDS) throw new Unparseable('too many commands');
    switch (node.type) {
      case 'SimpleCommand':
        this.simple(node, scope, depth);
        return;
      case 'If':
        for (const c of node.clauses) {
          this.statements(c.condition, scope, depth);
          this.statements(c.body, scope, depth);
        }
        if (node.elseBody) this.statements(node.elseBody, scope, depth);
        break;
      case 'For':
        this.nested(node.words, scope, depth);
        this.statements(node.body, scope, depth);
        break;
      case 'CStyleFor':
        this.nested([node.init, node.condition, node.update], scope, depth);
        this.statements(node.body, scope, depth);
        break;
      case 'While':
      case 'Until':
        this.statements(node.condition, scope, depth);
        this.statements(node.body, scope, depth);
        break;
      case 'Case':
        this.nested(node.word, scope, depth);
        for (const item of node.items) {
          this.nested(item.patterns, scope, depth);
          this.statements(item.body, scope, depth);
        }
        break;
      case 'Subshell':
        this.statements(node.body, copyScope(scope), depth);
        break;
      case 'Group':
        this.statements(node.body, scope, depth);
        break;
      case 'ArithmeticCommand':
      case 'ConditionalCommand':
        this.nested(node.expression, scope, depth);
        this.push(pseudo(node.type === 'ConditionalCommand' ? '[[ … ]]' : '(( … ))', true));
        break;
      case 'FunctionDef':
        this.command(node.body, copyScope(scope), depth);
        this.push({ ...pseudo(`${node.name}() { … }`, false), reason: 'defines a function' });
        break;
      default:
        throw new Unparseable(`unknown command ${(node as { type: string }).type}`);
    }
    this.redirections(node.redirections, scope, depth, '');
  }

  /** Records the file redirections of a compound command (`{ ...; } > out`). */
  redirections(list: readonly Redirection[], scope: Scope, depth: number, source: string): void {
    if (list.length === 0) return;
    this.nested(list, scope, depth);
    const io = redirectIo(list, scope);
    if (io.writes.length === 0 && io.reads.length === 0) return;
    this.push({
      ...pseudo(source || 'redirection', io.writes.length === 0),
      writes: io.writes,
      reads: io.reads,
    });
  }

  /**
   * Follows a command another one runs with arguments added at run time (`xargs`, `find -exec`): a
   * shell's static `-c` text is parsed; false when it runs code that cannot be seen.
   */
  runsInner(words: readonly ShellWordInfo[], scope: Scope, depth: number): boolean {
    const name = words[0]?.dynamic ? '' : (words[0]?.text ?? '');
    if (name === 'eval' || name === 'source' || name === '.') return false;
    if (!SHELLS.has(name)) return !inlineCodeSpawns(words);
    const inv = shellInvocation(words);
    if (inv.kind !== 'text' || inv.text.dynamic) return false;
    this.text(inv.text.text, copyScope(scope), depth);
    return true;
  }

  push(sub: ShellSubcommand): void {
    this.subcommands.push(sub);
  }

  simple(node: SimpleCommandNode, scope: Scope, depth: number): void {
    // Substitutions run first, in subshells that start where this command starts.
    this.nested([node.assignments, node.name, node.args, node.redirections], scope, depth);
    const written = [...(node.name ? [node.name] : []), ...node.args].map(wordInfo);
    const io = redirectIo(node.redirections, scope);
    const source = written.map((w) => w.text).join(' ');
    const assignments = node.assignments.length > 0;
    if (written.length === 0) {
      this.push({
        ...pseudo(source || node.assignments.map((a) => `${a.name}=…`).join(' '), false),
        reason: assignments ? 'variable assignment' : 'redirection',
        writes: io.writes,
        reads: io.reads,
      });
      return;
    }
    const un = unwrapCommand(written);
    const inner = un.words;
    const name = inner[0] && !inner[0].dynamic ? inner[0].text : '';
    const extraForms: ShellWordInfo[][] = [];
    let opaque = false;
    let container = false;
    let readOnlyOverride = false;

    if (un.splitString) {
      if (un.splitString.dynamic || inner.some((w) => w.dynamic)) opaque = true;
      else {
        this.text(
          [un.splitString.text, ...inner.map((w) => quote(w.text))].join(' '),
          copyScope(scope),
          depth,
        );
        container = true;
      }
    } else if (SHELLS.has(name)) {
      const inv = shellInvocation(inner);
      if (inv.kind === 'text') {
        if (inv.text.dynamic) opaque = true;
        else {
          this.text(inv.text.text, copyScope(scope), depth);
          container = true;
        }
      } else if (inv.kind === 'stdin' && io.stdin !== null) {
        this.text(io.stdin, copyScope(scope), depth);
        container = true;
      } else opaque = true;
    } else if (name === 'eval') {
      const args = inner.slice(1);
      if (args.some((w) => w.dynamic)) opaque = true;
      else {
        this.text(args.map((w) => w.text).join(' '), copyScope(scope), depth);
        container = true;
      }
    } else if (name === 'source' || name === '.') {
      opaque = true;
    } else if (name === 'trap') {
      const action = inner[1];
      if (action && !action.text.startsWith('-')) {
        if (action.dynamic) opaque = true;
        else this.text(action.text, copyScope(scope), depth);
      }
    } else if (name === 'alias') {
      for (const w of inner.slice(1)) {
        const eq = w.text.indexOf('=');
        if (eq < 0) continue;
        if (w.dynamic) opaque = true;
        else this.text(w.text.slice(eq + 1), copyScope(scope), depth);
      }
    } else if (name === 'watch') {
      const rest = inner.slice(1).filter((w) => !w.text.startsWith('-'));
      if (rest.some((w) => w.dynamic)) opaque = true;
      else if (rest.length > 0) this.text(rest.map((w) => w.text).join(' '), copyScope(scope), depth);
    } else if (name === 'find') {
      for (const cmd of findExecCommands(inner)) {
        const nestedUn = unwrapCommand(cmd);
        extraForms.push(cmd, nestedUn.words);
        if (!this.runsInner(nestedUn.words, scope, depth)) opaque = true;
      }
    } else if (inlineCodeSpawns(inner) || (io.stdin !== null && stdinCodeSpawns(inner, io.stdin))) {
      opaque = true;
    }
    if (un.xargs && !this.runsInner(inner, scope, depth)) opaque = true;
    if (NAVIGATION.has(name) || un.lookup) readOnlyOverride = true;

    const paths = NO_FILE_ARGS.has(name) || container || opaque ? [] : pathArgs(inner, scope);
    if (un.chdir) paths.push(pathRef(un.chdir, scope));
    if (name === 'cd' || name === 'pushd' || name === 'popd') moveScope(scope, name, inner);
    if (un.chdir)
      scope.cdTrail = un.chdir.dynamic || !scope.cdTrail ? null : [...scope.cdTrail, un.chdir.text];

    let problem: string | null;
    if (readOnlyOverride) problem = null;
    else if (assignments) problem = 'variable assignment';
    else if (un.changesEnvironment) problem = 'changes the environment of the command';
    else if (opaque) problem = 'runs code that cannot be checked';
    else if (container) problem = null;
    else problem = programProblem(inner.map(toShellWord));
    const allowTexts = assignments
      ? []
      : [written, ...(un.transparent && !un.xargs ? [inner] : [])]
          .filter((ws) => ws.length > 0 && ws.every((w) => !w.dynamic))
          .map((ws) => ws.map((w) => w.text).join(' '));
    this.push({
      source,
      words: inner,
      allowTexts: [...new Set(allowTexts)],
      denyForms: denyForms(written, inner, extraForms, problem === null, opaque),
      readOnly: problem === null,
      ...(problem ? { reason: problem } : {}),
      opaque,
      fileOnly: FILE_ONLY.has(name) && !un.xargs,
      ...(isRecursive(name, inner) ? { recursive: true } : {}),
      writes: io.writes,
      reads: io.reads,
      paths,
      ...(container ? { container: true } : {}),
    });
  }
}

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

const toShellWord = (w: ShellWordInfo): ShellWord => ({
  value: w.text,
  quoted: false,
  expanded: w.dynamic,
  glob: w.glob,
});

/** A sub-command with no program (redirections, assignments, compound markers). */
function pseudo(source: string, readOnly: boolean): ShellSubcommand {
  return {
    source,
    words: [],
    allowTexts: [],
    denyForms: [],
    readOnly,
    opaque: false,
    fileOnly: false,
    writes: [],
    reads: [],
    paths: [],
  };
}

function pathRef(w: ShellWordInfo, scope: Scope): ShellPathRef {
  return {
    text: w.text,
    dynamic: w.dynamic,
    glob: w.glob,
    cdTrail: scope.cdTrail ? [...scope.cdTrail] : null,
  };
}

/** Arguments that may be file names: non-options, values of `--opt=value`, `dd if=/of=`. */
function pathArgs(words: readonly ShellWordInfo[], scope: Scope): ShellPathRef[] {
  const out: ShellPathRef[] = [];
  let options = true;
  // grep PATTERN FILE..., sed SCRIPT FILE..., awk PROGRAM FILE...: the first operand is not a file
  // (unless the pattern or script came with -e / -f).
  let skipFirst =
    SCRIPT_FIRST.has(words[0]?.text ?? '') &&
    !words.some((w) => /^(-[ef]|--regexp|--file|--expression)/.test(w.text));
  for (const w of words.slice(1)) {
    const t = w.text;
    if (options && t === '--') {
      options = false;
      continue;
    }
    if (t === '-' || t === '') continue;
    if (options && t.startsWith('-') && !w.dynamic) {
      const eq = t.indexOf('=');
      if (eq > 0 && eq < t.length - 1) out.push(pathRef({ ...w, text: t.slice(eq + 1) }, scope));
      continue;
    }
    if (skipFirst) {
      skipFirst = false;
      continue;
    }
    const dd = /^(if|of)=(.+)$/.exec(t);
    out.push(pathRef(dd ? { ...w, text: dd[2] } : w, scope));
  }
  return out;
}

/** Applies `cd` / `pushd` / `popd` to the scope. */
function moveScope(scope: Scope, name: string, words: readonly ShellWordInfo[]): void {
  const args = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.text));
  if (name === 'popd' || args.length > 1 || args[0]?.dynamic || args[0]?.text === '-') {
    scope.cdTrail = null;
    return;
  }
  if (scope.cdTrail) scope.cdTrail.push(args[0]?.text ?? '~');
}

interface RedirectIo {
  writes: ShellPathRef[];
  reads: ShellPathRef[];
  /** What a here-doc or here-string feeds to standard input, when it is fully known. */
  stdin: string | null;
}

function redirectIo(list: readonly Redirection[], scope: Scope): RedirectIo {
  const io: RedirectIo = { writes: [], reads: [], stdin: null };
  for (const r of list) {
    const target = r.target;
    if (target.type === 'HereDoc') {
      const w = wordInfo(target.content);
      io.stdin = w.dynamic ? null : w.text;
      continue;
    }
    const w = wordInfo(target);
    const isFile = w.dynamic || !NOT_FILES.test(w.text.startsWith('/') ? normalizeAbsolute(w.text) : w.text);
    switch (r.operator) {
      case '<<<':
        io.stdin = w.dynamic ? null : w.text;
        break;
      case '<':
        if (isFile) io.reads.push(pathRef(w, scope));
        break;
      case '<&':
        break;
      case '>&':
        if (!w.dynamic && /^(\d+-?|-)$/.test(w.text)) break;
        if (isFile) io.writes.push(pathRef(w, scope));
        break;
      default:
        if (isFile) io.writes.push(pathRef(w, scope));
    }
  }
  return io;
}

/**
 * Parses a command line into the matcher the permission engine uses. Never throws: a line the parser
 * rejects, or that uses a construct this walker does not know, is `parsed: false`.
 */
export async function analyzeShellCommand(command: string): Promise<BashPermissionMatcher> {
  let parse: (line: string) => ScriptNode;
  try {
    parse = await loadParser();
  } catch (err) {
    return unparsed(command, `the shell parser could not load: ${String(err)}`);
  }
  const walker = new Walker(parse);
  try {
    walker.text(command, { cdTrail: [] }, -1);
  } catch (err) {
    if (err instanceof Unparseable) return unparsed(command, err.message);
    return unparsed(command, err instanceof Error ? err.message : String(err));
  }
  const subcommands = walker.subcommands;
  return {
    kind: 'bash',
    command,
    parsed: true,
    subcommands,
    readOnly: subcommands.length > 0 && subcommands.every((s) => s.readOnly && s.writes.length === 0),
  };
}

function unparsed(command: string, reason: string): BashPermissionMatcher {
  return { kind: 'bash', command, parsed: false, parseError: reason, subcommands: [], readOnly: false };
}
