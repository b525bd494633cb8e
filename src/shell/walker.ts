/**
 * Walks just-bash's AST of a command line and lists every command it may run: through `&&`, `||`, `;`,
 * pipes, subshells, groups, loops, functions, `$(...)`, backticks, process substitution, array
 * subscripts and arithmetic the shell evaluates, `bash -c` / `sh -c` text, here-docs fed to a shell,
 * `eval`, `trap`, `alias` values, `env -S`, wrappers (`env`, `command`, `timeout`, `xargs`...), `find
 * -exec`, and commands sed and awk programs run. Anything the parser rejects, or a construct the walker
 * does not know, makes the line unparseable. The scope and the entries it records are built in entries.ts;
 * what of a command's own words is code (`sh -c`, `eval`, `trap`, `alias`, `find -exec`) is in nested-code.ts.
 */
import type { CommandNode, ScriptNode, SimpleCommandNode, StatementNode } from 'just-bash';
import { messageOf } from '../core/errors.ts';
import { VariableAttributes } from './attributes.ts';
import {
  chdirScope,
  copyScope,
  type EntryDraft,
  moveScope,
  OPAQUE_FORM,
  pathRef,
  pseudoEntry,
  redirectionEntry,
  type Scope,
  shownText,
  withLazyForms,
} from './entries.ts';
import { pathUse } from './facts.ts';
import { commandForms } from './forms.ts';
import { interpreterCode, SHELLS, scriptFiles, shellInvocation } from './interpreters.ts';
import { type NestedHost, nestedCode } from './nested-code.ts';
import type { ShellParser } from './parser.ts';
import { isBuiltin, type PathUse, programFacts } from './programs.ts';
import { redirectIo } from './redirects.ts';
import { isCodeVariable, isPlainVariable } from './session.ts';
import { conditionalRisks } from './test-expr.ts';
import type { ShellCommand, ShellWord } from './types.ts';
import { type ExpansionFacts, emptyFacts, scanExpansions, UnknownSyntax, wordOf } from './words.ts';
import { unwrapCommand } from './wrappers.ts';

type RedirectionNode = SimpleCommandNode['redirections'][number];

/** The line cannot be analysed (the engine asks, showing why). */
export class Unparseable extends Error {}

/** Deepest nesting of scripts in scripts (`bash -c "eval '...'"`) before the line counts as unparseable. */
export const MAX_DEPTH = 12;
/** Most commands one line may hold before it counts as unparseable. */
export const MAX_COMMANDS = 500;

/** Commands acceptEdits allows on workspace paths (Claude Code's list; sed edits files in place). */
const FILE_ONLY = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm', 'rmdir', 'sed']);

/** Builtins whose arguments are variable names they set. */
const SETS_NAMES = new Set(
  'export declare typeset local readonly read mapfile readarray unset getopts'.split(' '),
);

export class Walker {
  readonly commands: ShellCommand[] = [];
  readonly assigns = new Set<string>();
  anyAssign = false;
  parserRuns = 0;
  private readonly functions = new Set<string>();
  /** What a function or alias name runs: walked again where it is called, from there. */
  private readonly bodies = new Map<string, CommandNode | string>();
  /** Names whose body is being walked for a call (a recursive call is walked once). */
  private readonly calling = new Set<string>();
  /** Names `hash -p` bound to another program. */
  private readonly rebound = new Set<string>();
  /** Names declared `-n` (namerefs) or `-i` (integers) so far. */
  private readonly attributes = new VariableAttributes();

  /** What nested-code.ts may do here. */
  private readonly host: NestedHost = {
    text: (line, scope, depth) => this.text(line, scope, depth),
    inner: (words, written, scope, depth) => this.inner(words, written, scope, depth),
    defineAlias: (name, body) => {
      this.functions.add(name);
      if (body !== null) this.bodies.set(name, body);
      this.attributes.alias(body);
    },
    assign: (names) => {
      if (names === 'any') this.anyAssign = true;
      else for (const name of names) this.assigns.add(name);
    },
  };

  constructor(private readonly parse: ShellParser) {}

  /** Parses and walks a script text. */
  text(line: string, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) throw new Unparseable('scripts nested too deeply');
    let ast: ScriptNode;
    try {
      this.parserRuns++;
      ast = this.parse(line);
    } catch (err) {
      throw new Unparseable(messageOf(err));
    }
    this.script(ast, scope, depth + 1);
  }

  script(node: ScriptNode, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) throw new Unparseable('scripts nested too deeply');
    this.statements(node.statements, scope, depth);
  }

  /** Walks what expanding `node` runs (substitutions, evaluated subscripts); returns the facts. */
  expansions(node: unknown, scope: Scope, depth: number): ExpansionFacts {
    const facts = emptyFacts();
    scanExpansions(node, facts);
    for (const s of facts.scripts) this.script(s, copyScope(scope), depth + 1);
    for (const t of facts.texts) this.text(t, copyScope(scope), depth);
    for (const name of facts.assigns) this.assigns.add(name);
    return facts;
  }

  /** Text the shell evaluates as arithmetic or a subscript: the commands its substitutions run. */
  evaluated(text: string, scope: Scope, depth: number): void {
    this.text(`: ${text}`, copyScope(scope), depth);
  }

  statements(list: readonly StatementNode[], scope: Scope, depth: number): void {
    for (const st of list) {
      if (st.deferredError) throw new Unparseable(st.deferredError.message);
      // just-bash runs every stage of a pipeline in the shell itself, one after another: a `cd` in any
      // stage moves the next stages and the statements after the pipeline (bash would fork each stage;
      // the trail holds places that may have been reached, so sharing it stays right for both).
      for (const pipeline of st.pipelines)
        for (const cmd of pipeline.commands) this.command(cmd, scope, depth);
    }
  }

  command(node: CommandNode, scope: Scope, depth: number): void {
    if (this.commands.length > MAX_COMMANDS) throw new Unparseable('too many commands');
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
      case 'For': {
        this.assigns.add(node.variable);
        const facts = this.expansions(node.words, scope, depth);
        if (facts.evaluates.length > 0) this.pseudo('for … in', facts.evaluates[0], true);
        this.loop(() => this.statements(node.body, scope, depth), scope);
        break;
      }
      case 'CStyleFor': {
        const facts = this.expansions([node.init, node.condition, node.update], scope, depth);
        this.pseudo('for (( … ))', facts.evaluates[0] ?? null, true);
        this.loop(() => this.statements(node.body, scope, depth), scope);
        break;
      }
      case 'While':
      case 'Until':
        this.loop(() => {
          this.statements(node.condition, scope, depth);
          this.statements(node.body, scope, depth);
        }, scope);
        break;
      case 'Case': {
        const facts = this.expansions([node.word, ...node.items.map((i) => i.patterns)], scope, depth);
        if (facts.evaluates.length > 0) this.pseudo('case', facts.evaluates[0], false);
        for (const item of node.items) this.statements(item.body, scope, depth);
        break;
      }
      case 'Subshell':
        this.statements(node.body, copyScope(scope), depth);
        break;
      case 'Group':
        this.statements(node.body, scope, depth);
        break;
      case 'ArithmeticCommand': {
        const facts = this.expansions(node.expression, scope, depth);
        this.pseudo('(( … ))', facts.evaluates[0] ?? null, facts.assigns.length > 0);
        break;
      }
      case 'ConditionalCommand': {
        const facts = this.expansions(node.expression, scope, depth);
        const evaluates = [...facts.evaluates];
        conditionalRisks(node.expression, evaluates, (text) => this.evaluated(text, scope, depth));
        this.pseudo('[[ … ]]', evaluates[0] ?? null, false);
        break;
      }
      case 'FunctionDef':
        // From here on the name runs the body rather than a program of that name: walked here, and again
        // at each call from where it is called (it runs in the caller's shell: its cd counts there).
        this.functions.add(node.name);
        this.bodies.set(node.name, node.body);
        this.command(node.body, copyScope(scope), depth);
        // Defining runs nothing: each call is walked where it is made (an unseen call, through `eval "$x"`
        // or a name only known at run time, is opaque on its own). But bash itself calls
        // command_not_found_handle, for any program it does not find, from wherever the shell is then.
        if (node.name === 'command_not_found_handle')
          this.pseudo(
            `${node.name}() { … }`,
            'defines a function bash runs for any program it does not find',
            true,
            true,
          );
        else this.pseudo(`${node.name}() { … }`, null, true, false);
        break;
      default:
        throw new Unparseable(`unknown command ${(node as { type: string }).type}`);
    }
    this.compoundRedirections(node.redirections, scope, depth);
  }

  /**
   * A loop's condition and body run again and again, each time from where the last one left: when a
   * pass moves the shell (`cd`), the next one runs from a directory the line does not fix, so it is walked
   * again from an unknown directory (relative paths then name no known file); and when a pass declared a
   * name `-n` or `-i` after assigning it, the assignment is walked again with the name declared.
   */
  private loop(pass: () => void, scope: Scope): void {
    const before = scope.cdTrail ? scope.cdTrail.join('\0') : null;
    const attributes = this.attributes.state();
    pass();
    const after = scope.cdTrail ? scope.cdTrail.join('\0') : null;
    const moved = before !== null && after !== before;
    if (!moved && this.attributes.state() === attributes) return;
    if (moved) scope.cdTrail = null;
    pass();
  }

  /** A call of a function or alias the line defined: its body, walked from where it is called. */
  private call(name: string, scope: Scope, depth: number): void {
    const body = name ? this.bodies.get(name) : undefined;
    if (body === undefined || this.calling.has(name)) return;
    this.calling.add(name);
    try {
      if (typeof body === 'string') this.text(body, scope, depth);
      else this.command(body, scope, depth + 1);
    } finally {
      this.calling.delete(name);
    }
  }

  /** A command with no program of its own (`[[ ]]`, `(( ))`, a function definition). */
  private pseudo(...args: Parameters<typeof pseudoEntry>): void {
    this.push(pseudoEntry(...args));
  }

  /** The file redirections of a compound command (`{ ...; } > out`). */
  private compoundRedirections(list: readonly RedirectionNode[], scope: Scope, depth: number): void {
    if (list.length === 0) return;
    this.expansions(list, scope, depth);
    const io = redirectIo(list);
    for (const name of io.assigns) this.assigns.add(name);
    if (io.paths.length === 0 && !io.network) return;
    const paths = io.paths.map((p) => pathRef(p, scope));
    this.push(redirectionEntry(io, paths));
  }

  /** Records a command (its forms, when a function, computed on first read). */
  private push(command: EntryDraft): void {
    this.commands.push(withLazyForms(command));
  }

  /**
   * A command another one runs with arguments added at run time (`xargs`, `find -exec`): its own
   * entry, with a shell's static `-c` text parsed.
   */
  private inner(
    words: readonly ShellWord[],
    written: readonly ShellWord[],
    scope: Scope,
    depth: number,
  ): void {
    const un = unwrapCommand(words);
    this.host.assign(un.assigns);
    // `-exec env -C DIR sh -c …`: the command, its code and its files, from DIR.
    const from = chdirScope(scope, un.chdir);
    const name = un.words[0]?.dynamic ? '' : (un.words[0]?.text ?? '');
    let opaque = un.words.length === 0 || un.words[0].dynamic;
    let container = false;
    if (name === 'eval' || name === 'source' || name === '.') opaque = true;
    else if (SHELLS.has(name)) {
      const inv = shellInvocation(un.words);
      if (inv.kind !== 'stdin' && inv.text && !inv.text.dynamic)
        this.text(inv.text.text, copyScope(from), depth);
      if (inv.kind === 'text' && !inv.text.dynamic) container = true;
      else opaque = true;
    } else if (interpreterCode(un.words) !== null) opaque = true;
    const facts = programFacts(un.words);
    for (const s of facts.scripts) this.text(s, copyScope(from), depth);
    for (const t of facts.evaluatedTexts) this.evaluated(t, from, depth);
    // Code the shell evaluates from its arguments is code nobody sees: every rule may match it.
    if (facts.opaque || facts.evaluates.length > 0) opaque = true;
    // `find -exec env LD_PRELOAD=x ls`, `-exec sudo ls`: as for a command of the line itself.
    const codeSet = (un.sets ?? []).find(isCodeVariable);
    if (codeSet) opaque = true;
    const problem =
      facts.evaluates[0] ??
      (codeSet
        ? `${codeSet} set for the command makes it run code the line does not show`
        : opaque
          ? 'runs code that cannot be checked'
          : un.changesEnvironment
            ? 'changes the environment of the command'
            : container
              ? null
              : (facts.problem ?? null));
    this.push({
      source: shownText(written),
      words: un.words,
      allowTexts:
        written.every((w) => !w.dynamic) && written.length > 0 ? [written.map((w) => w.text).join(' ')] : [],
      forms: () =>
        commandForms(written, un.words, [], {
          readOnly: problem === null,
          opaque: opaque || facts.opaque,
          shadowed: this.functions.has(name),
        }),
      readOnly: problem === null,
      ...(problem ? { reason: problem } : {}),
      changesState: false,
      opaque,
      container,
      startsShell: SHELLS.has(name),
      usesPath: name !== '' && !name.includes('/') && !isBuiltin(name),
      fileOnly: false,
      destructive: facts.destructive,
      paths: [
        ...facts.paths,
        ...un.paths.map((p) => ({ ...p, sure: true, recursive: false })),
        ...scriptFiles(un.words).map((word) => ({
          word,
          access: 'read' as const,
          sure: true,
          recursive: false,
        })),
      ].map((p) => pathRef(p, from)),
      cdTrail: from.cdTrail ? [...from.cdTrail] : null,
    });
  }

  simple(node: SimpleCommandNode, scope: Scope, depth: number): void {
    // Substitutions run first, in subshells that start where this command starts.
    const exp = this.expansions([node.assignments, node.name, node.args, node.redirections], scope, depth);
    const written = [...(node.name ? [node.name] : []), ...node.args].map(wordOf);
    const io = redirectIo(node.redirections);
    for (const name of io.assigns) this.assigns.add(name);
    const assignments = node.assignments.length > 0;
    // `dir=src`, `n=3 cmd`: a variable of the script's own; one the shell or programs read is not.
    const plainAssignments = node.assignments.every((a) => isPlainVariable(a.name));
    // As the user wrote it (quotes kept, assignments first), for messages; rules match words' texts.
    const source = [
      ...node.assignments.map((a) => `${a.name}=${a.value ? shownText([wordOf(a.value)]) : ''}`),
      ...(written.length > 0 ? [shownText(written)] : []),
    ].join(' ');
    const evaluates = [...exp.evaluates];
    const un = unwrapCommand(written);
    this.host.assign(un.assigns);
    const inner = un.words;
    const name = inner[0] && !inner[0].dynamic ? inner[0].text : '';
    for (const a of node.assignments) {
      // `a=([x]=1)`: an indexed array's subscript is arithmetic, which expands what a variable named in it
      // holds, as code (`x='b[$(cmd)]'`); only a number is plain.
      const subscript = (a.array ?? [])
        .map((el) => /^\[([^\]]*)\]\+?=/.exec(wordOf(el).text)?.[1])
        .find((s) => s !== undefined && !/^\s*\d+\s*$/.test(s));
      if (subscript !== undefined)
        evaluates.push(`the array subscript [${subscript}] is evaluated as arithmetic, which may run code`);
      const value = a.value ? wordOf(a.value) : { text: '', dynamic: false, glob: false };
      const why =
        this.codeVariable(a.name, value, scope, depth) ?? this.attributed(a.name, value, scope, depth);
      if (why) evaluates.push(why);
    }
    // `LD_PRELOAD=x.so ls`, `env GIT_EXTERNAL_DIFF=… git diff`: the program runs code its words do not show.
    for (const set of [...node.assignments.map((a) => a.name), ...(un.sets ?? [])]) {
      if (isCodeVariable(set) && (inner.length > 0 || un.splitString))
        evaluates.push(`${set} set for the command makes it run code the line does not show`);
    }
    if (SETS_NAMES.has(name)) {
      for (const w of inner.slice(1)) {
        const eq = w.text.indexOf('=');
        if (eq <= 0) continue;
        // `declare -a a=($(cmd))`: the parser keeps an array value of a builtin's argument as flat text,
        // so the commands bash runs to expand it are not seen.
        if (w.text[eq + 1] === '(') {
          evaluates.push(
            `${name} with an array value (${w.text.slice(0, eq)}=(…)) runs what its expansion holds`,
          );
          continue;
        }
        const value = { ...w, text: w.text.slice(eq + 1) };
        const target = w.text.slice(0, eq).replace(/\+$/, '');
        // A name declared before (this declaration's own attributes apply from the next command on).
        const why =
          this.codeVariable(target, value, scope, depth) ?? this.attributed(target, value, scope, depth);
        if (why) evaluates.push(why);
      }
      this.attributes.declare(name, inner);
    }
    if (name === 'hash') {
      // `hash -p /bin/rm ls`: from here on the name runs another program.
      for (let k = 1; k < inner.length; k++) {
        if (inner[k].text === '-p' && inner[k + 2]) this.rebound.add(inner[k + 2].text);
      }
    }
    if (this.rebound.has(name)) evaluates.push(`${name} was bound to another program with hash -p`);
    this.call(name, scope, depth);
    // `nice() { cat key.pem; }; cd secrets; nice ls`: a function named like a wrapper runs in place of it.
    const first = written[0];
    if (first && !first.dynamic && first.text !== name) this.call(first.text, scope, depth);

    if (inner.length === 0 && !un.splitString) {
      // Assignments, redirections, `exec 3>file`, or a wrapper that runs nothing (`env`, `command -v x`).
      const problem =
        evaluates[0] ??
        io.network ??
        (assignments && written.length === 0 && !plainAssignments ? 'variable assignment' : null);
      const programProblem = written.length > 0 && !un.lookup ? programFacts(written).problem : null;
      const paths = [...io.paths, ...un.paths.map((p) => ({ ...p, sure: true, recursive: false }))];
      this.push({
        source: source || 'redirection',
        words: [],
        allowTexts:
          written.length > 0 && written.every((w) => !w.dynamic) && !assignments
            ? [written.map((w) => w.text).join(' ')]
            : [],
        forms: () => [
          ...(written.length > 0
            ? commandForms(written, written, [], { readOnly: true, opaque: false, shadowed: false })
            : []),
          ...(evaluates.length > 0 ? [OPAQUE_FORM] : []),
        ],
        readOnly: (problem ?? programProblem) === null,
        ...((problem ?? programProblem) ? { reason: (problem ?? programProblem) as string } : {}),
        changesState: (assignments && written.length === 0) || written[0]?.text === 'exec',
        opaque: evaluates.length > 0,
        container: false,
        startsShell: false,
        usesPath: false,
        fileOnly: false,
        destructive: io.overwrites,
        paths: paths.map((p) => pathRef(p, scope)),
      });
      return;
    }

    const nested = nestedCode(this.host, inner, un, io, scope, depth);
    const extraForms = nested.extraForms;
    let opaque = evaluates.length > 0 || nested.opaque;
    let container = nested.container;
    let changesState = (assignments && written.length === 0) || nested.changesState;

    if (un.xargs) {
      // xargs runs the command with arguments read at run time: the command is its own entry.
      // The command as written after xargs and its options (for allow rules; `{}` as written).
      const count = inner.filter((w) => !(w.dynamic && w.text === '…')).length;
      const tail = written.slice(written.length - count);
      const given = tail[0]?.text === inner[0]?.text ? tail : inner.slice(0, count);
      this.inner(inner, given, scope, depth);
      container = true;
    }

    const facts = container || opaque ? null : programFacts(inner);
    if (facts) {
      for (const s of facts.scripts) this.text(s, copyScope(scope), depth);
      for (const t of facts.evaluatedTexts) this.evaluated(t, scope, depth);
      evaluates.push(...facts.evaluates);
      if (facts.opaque || facts.evaluates.length > 0) opaque = true;
      if (facts.changesState) changesState = true;
      // `at now <<< 'rm …'`, `make -f - <<EOF`: a program nobody reads may run the text it is given.
      if (facts.unknown && io.stdin !== null) {
        opaque = true;
        evaluates.push(
          `${name || 'the program'} is given text on its standard input that it may run as code`,
        );
      }
    }
    if (SETS_NAMES.has(name) || (name === 'printf' && inner[1]?.text.startsWith('-v'))) this.namesSet(inner);
    // `set -P`, `set -o physical`: later `cd`s take `..` physically.
    if (
      name === 'set' &&
      inner.some(
        (w, k) => /^-[a-zA-Z]*P/.test(w.text) || (w.text === 'physical' && inner[k - 1]?.text === '-o'),
      )
    )
      scope.physical = true;
    if (name === 'cd' || name === 'pushd' || name === 'popd') this.host.assign(['PWD', 'OLDPWD']);

    // `env -C DIR cmd FILE`: the program and its files are found from DIR (the redirections, opened by
    // the shell, and DIR itself from where the shell is).
    const programScope = chdirScope(scope, un.chdir);
    const programPaths: PathUse[] = [
      ...(facts?.paths ?? []),
      ...un.paths.map((p) => ({ ...p, sure: true, recursive: false })),
    ];
    // A script it runs is read (`source .env`, `sh key.pem`): a Read rule on it denies.
    for (const word of scriptFiles(inner))
      programPaths.push({ word, access: 'read', sure: true, recursive: false });
    const shellPaths: PathUse[] = [...io.paths];
    if (un.chdir) shellPaths.push({ word: un.chdir, access: 'read', sure: true, recursive: false });
    const refs = [
      ...programPaths.map((p) => pathRef(p, programScope)),
      ...shellPaths.map((p) => pathRef(p, scope)),
    ];
    if (name === 'cd' || name === 'pushd' || name === 'popd') moveScope(scope, name, inner);
    if (un.chdir) scope.cdTrail = programScope.cdTrail;

    let problem: string | null;
    if (evaluates.length > 0) problem = evaluates[0];
    else if (io.network) problem = io.network;
    else if (assignments && !plainAssignments) problem = 'variable assignment';
    else if (un.changesEnvironment) problem = 'changes the environment of the command';
    else if (opaque) problem = 'runs code that cannot be checked';
    else if (container) problem = null;
    else problem = facts?.problem ?? null;
    const allowTexts = assignments
      ? []
      : [written, ...(un.transparent && !un.xargs ? [inner] : [])]
          .filter((ws) => ws.length > 0 && ws.every((w) => !w.dynamic))
          .map((ws) => ws.map((w) => w.text).join(' '));
    this.push({
      source,
      // xargs itself: what it runs is the entry pushed for it above.
      words: un.xargs ? written : inner,
      allowTexts: [...new Set(allowTexts)],
      forms: () =>
        commandForms(written, inner, extraForms, {
          readOnly: problem === null,
          opaque,
          shadowed: this.functions.has(name),
        }),
      readOnly: problem === null,
      ...(problem ? { reason: problem } : {}),
      changesState,
      opaque,
      container,
      startsShell: SHELLS.has(name),
      usesPath: name !== '' && !name.includes('/') && !isBuiltin(name) && !this.functions.has(name),
      // What acceptEdits allows on workspace paths: the file commands themselves, running no other code.
      fileOnly:
        FILE_ONLY.has(name) &&
        !un.xargs &&
        !opaque &&
        evaluates.length === 0 &&
        !un.changesEnvironment &&
        (!assignments || plainAssignments),
      destructive: (facts?.destructive ?? false) || io.overwrites,
      paths: refs,
      cdTrail: scope.cdTrail ? [...scope.cdTrail] : null,
      ...(facts?.links
        ? {
            links: facts.links.map((l) => ({
              at: pathRef(pathUse(l.at, 'write', true), scope),
              to: pathRef(pathUse(l.to, 'read', true), scope),
              symbolic: l.symbolic,
            })),
          }
        : {}),
    });
  }

  /**
   * Variables whose value the shell runs: prompts (PS0, PS1, PS2, PS4 with `set -x`) expand their
   * substitutions, PROMPT_COMMAND is a command line. A static value is walked; a run-time one is unseen
   * code (the reason is returned).
   */
  private codeVariable(name: string, value: ShellWord, scope: Scope, depth: number): string | null {
    if (!/^(PS[0124]|PROMPT_COMMAND)$/.test(name)) return null;
    if (value.dynamic) return `${name} is set to text only known at run time, which the shell runs`;
    if (name === 'PROMPT_COMMAND') this.text(value.text, copyScope(scope), depth);
    else if (/[$`]/.test(value.text)) this.evaluated(value.text, scope, depth);
    return null;
  }

  /** Why assigning `name` does more than set it (a nameref, an integer: see attributes.ts), or null. */
  private attributed(name: string, value: ShellWord, scope: Scope, depth: number): string | null {
    const found = this.attributes.assigned(name, value);
    if (found?.kind === 'nameref') this.anyAssign = true;
    if (found?.kind === 'integer' && found.evaluated !== null) this.evaluated(found.evaluated, scope, depth);
    return found?.reason ?? null;
  }

  /** Variables a builtin sets (`export X=1`, `read a b`, `unset X`); a run-time name may be any. */
  private namesSet(words: readonly ShellWord[]): void {
    for (const w of words.slice(1)) {
      if (!w.dynamic && /^[-+][a-zA-Z]+$/.test(w.text)) continue;
      // `export PATH=$PWD/bin:$PATH`: the name is static even when the value is not.
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(=|\[|$)/.exec(w.text);
      if (m && (!w.dynamic || m[2] === '=')) {
        this.assigns.add(m[1]);
        // `read r` with r a nameref sets the variable r names.
        if (this.attributes.mayBeNameref(m[1])) this.anyAssign = true;
      } else if (w.dynamic) this.anyAssign = true;
    }
    if (words[0]?.text === 'read') this.assigns.add('REPLY');
  }
}

export { UnknownSyntax };
