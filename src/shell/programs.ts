/**
 * What a program does with its arguments, from what the analysis knows of it (its spec): the files it
 * reads and writes (`sort -oconfig/prod.env` writes config/prod.env), whether it is read-only, what it
 * runs. Programs with a language of their own have readers: sed, awk, find, git, test.
 */

import { analyzeAwk } from './awk.ts';
import {
  emptyProgramFacts as facts,
  type LinkUse,
  mayNameDirectory,
  type PathUse,
  type ProgramFacts,
  treeIfDirectory,
  pathUse as use,
} from './facts.ts';
import { gitFacts } from './git.ts';
import { type ParsedArgs, type ParseOptions, parseArgs, valueAccess } from './options.ts';
import { gzipOutputs, splitOutputs } from './outputs.ts';
import { analyzeSed } from './sed.ts';
import { changesShellState, NAME_BUILTINS, type Spec } from './specs.ts';
import { READER_SPECS } from './specs-readers.ts';
import { WRITER_SPECS } from './specs-writers.ts';
import { tarFacts } from './tar.ts';
import { analyzeTest } from './test-expr.ts';
import type { ShellWord } from './types.ts';
import { WRAPPERS } from './wrapper-table.ts';

/** The working directory, read by a recursive search given no file. */
const CWD_WORD: ShellWord = { text: '.', dynamic: false, glob: false };

export type { PathUse, ProgramFacts } from './facts.ts';
export { changesShellState, isBuiltin } from './specs.ts';

/** The programs the analysis knows, by name. */
const SPECS: Record<string, Spec> = { ...READER_SPECS, ...WRITER_SPECS };

/** True when the spec has an option that writes or runs something: then run-time words may be one. */
function dangerous(spec: Spec): boolean {
  const values = [...Object.values(spec.options.short ?? {}), ...Object.values(spec.options.long ?? {})];
  return (
    Object.keys(spec.options.effects ?? {}).length > 0 ||
    values.some((v) => !v.startsWith('value') && !v.startsWith('read') && !v.startsWith('list')) ||
    spec.check !== undefined
  );
}

function isRecursive(spec: Spec, a: ParsedArgs): boolean {
  if (spec.recursive === true) return true;
  const flags = spec.recursive ?? [];
  if (flags.some((f) => a.flags.has(f))) return true;
  // getopt_long takes an abbreviation (`--recur`, `--recu`): any prefix of a recursive long flag counts
  // (an ambiguous one fails the program, which is the safe side too).
  const long = flags.filter((f) => f.startsWith('--'));
  for (const given of a.flags) {
    if (given.startsWith('--') && given.length > 2 && long.some((f) => f.startsWith(given))) return true;
  }
  return a.values.some(
    (v) =>
      spec.recursiveValues?.includes(v.option) &&
      (v.word.dynamic || (v.word.text !== '' && 'recurse'.startsWith(v.word.text))),
  );
}

/**
 * The files cp, mv, ln and install write inside a destination directory: DIR/NAME for each source's last
 * name (`cp src/a.txt config` writes config/a.txt). A run-time source or directory names a run-time file.
 * just-bash's cp and mv name a source that ends in `/` by its whole text instead (its last name is
 * empty): `cp -r ../config/ t` writes t/../config, which is config. Both are written.
 */
function intoDirectory(dir: ShellWord, sources: readonly ShellWord[]): ShellWord[] {
  const base = dir.text.replace(/\/+$/, '');
  return sources.flatMap((src) => {
    const name = src.text.replace(/\/+$/, '').split('/').pop() ?? '';
    if (dir.dynamic || src.dynamic || name === '' || name === '.' || name === '..') {
      return [{ text: `${dir.text}/…`, dynamic: true, glob: false }];
    }
    const glob = dir.glob || src.glob;
    const named = { ...dir, text: `${base}/${name}`, glob };
    const whole = `${base}/${src.text.replace(/^\/+|\/+$/g, '')}`;
    return src.text.endsWith('/') && whole !== named.text ? [named, { ...dir, text: whole, glob }] : [named];
  });
}

/** A file read and written in place (`gzip x`, `sed -i`, `mv x y`'s x): both kinds of rule meet it. */
export const readAndWritten = (w: ShellWord, recursive = false): PathUse[] => [
  use(w, 'read', true, recursive),
  use(w, 'write', true, recursive),
];

/** Whether the command makes links, symbolic (true) or hard (false), or null when it makes none. */
function links(name: string, a: ParsedArgs): boolean | null {
  if (hardLinks(name, a)) return false;
  if (name === 'ln') return true;
  return name === 'cp' && (a.flags.has('-s') || a.flags.has('--symbolic-link')) ? true : null;
}

/** `ln` without -s, `cp -l` / `--link`, `link`: the new name is a hard link to the source. */
function hardLinks(name: string, a: ParsedArgs): boolean {
  if (name === 'link') return true;
  if (name === 'ln') return !a.flags.has('-s') && !a.flags.has('--symbolic');
  return name === 'cp' && (a.flags.has('-l') || a.flags.has('--link'));
}

/** Paths of the operands, by the spec's rule. */
function operandPaths(
  name: string,
  spec: Spec,
  a: ParsedArgs,
  recursive: boolean,
  linksMade: LinkUse[],
): PathUse[] {
  // A `-` keeps its place and counts as a file named `-`: which operand is the pattern, the mode or the
  // destination is decided on them all (`grep - .env` searches .env for `-`), and just-bash's cp, mv, rm,
  // tee, head, tail, nl and fold take `-` as a file, which may be a link an earlier call made.
  const ops = a.operands;
  // mv takes a directory's whole tree with it: where an operand is one (the engine looks), all below counts.
  if (spec.operands === 'move')
    return usesOfOperands(name, spec, a, ops, recursive, linksMade).map(treeIfDirectory);
  return usesOfOperands(name, spec, a, ops, recursive, linksMade);
}

/** `-` as an operand: standard input to the programs that read it so (uniq, split). */
const isStdin = (w: ShellWord | undefined): boolean => w?.text === '-' && !w.dynamic;

/** The paths of the operands by the spec's rule, before directories are looked at. */
function usesOfOperands(
  name: string,
  spec: Spec,
  a: ParsedArgs,
  ops: ShellWord[],
  recursive: boolean,
  linksMade: LinkUse[],
): PathUse[] {
  switch (spec.operands) {
    case 'none':
      return [];
    case 'read':
      // `uniq IN OUT` writes OUT, and IN may be `-` (standard input). just-bash's uniq reads every operand
      // as input (`uniq notes.txt .env` prints .env): its OUT is read too.
      if ((name === 'uniq' || name === 'xxd') && ops.length >= 2) {
        const [input, ...outputs] = ops;
        return [
          ...(isStdin(input) ? [] : [use(input, 'read', true)]),
          ...outputs.flatMap((w) => (name === 'uniq' ? readAndWritten(w) : [use(w, 'write', true)])),
        ];
      }
      return ops.map((w) => {
        const p = use(w, 'read', true, recursive || (spec.directoryOperands === true && mayNameDirectory(w)));
        return spec.directoryOperands === true ? treeIfDirectory(p) : p;
      });
    case 'write':
      return ops.map((w) => use(w, 'write', true, recursive));
    case 'modify':
      return [
        ...ops.flatMap((w) => readAndWritten(w, recursive)),
        ...gzipOutputs(name, a, ops).map((w) => use(w, 'write', true, recursive)),
      ];
    case 'archive': {
      const [archive, ...members] = ops;
      return archive
        ? [...readAndWritten(archive), ...members.map((w) => use(w, 'read', true, recursive))]
        : [];
    }
    case 'split': {
      // `split [IN [PREFIX]]`: IN is read (`-` or none: standard input); PREFIXaa, PREFIXab... are written.
      const [input, prefix] = ops;
      const out = input && !isStdin(input) ? [use(input, 'read', true)] : [];
      const base = prefix ?? { text: 'x', dynamic: false, glob: false };
      return [...out, use(base, 'write', true), ...splitOutputs(base, a).map((w) => use(w, 'write', true))];
    }
    case 'pattern': {
      const given = spec.patternOptions?.some((o) => a.flags.has(o));
      const files = given ? ops : ops.slice(1);
      // A recursive search given no file searches the working directory (rg always, GNU grep -r since
      // 2.11): `rg KEY` reads every file under the cwd, denied ones included.
      if (recursive && files.length === 0) return [use(CWD_WORD, 'read', true, true)];
      return files.map((w) => use(w, 'read', true, recursive));
    }
    case 'mode': {
      // chmod's mode may start with `-` (`chmod -w FILE`, read as flags): then every operand is a file.
      const dashMode = name === 'chmod' && [...a.flags].some((f) => /^-[rwxXstugoa]$/.test(f));
      const byReference = a.flags.has('--reference') || dashMode;
      return (byReference ? ops : ops.slice(1)).map((w) => use(w, 'write', true, recursive));
    }
    case 'copy':
    case 'move': {
      // A moved file's content goes on being readable under the new name; a hard link (`ln` without -s,
      // `cp -l`, `link`) makes the source writable under the new name: read and written, both.
      const aliased = spec.operands === 'move' || hardLinks(name, a);
      const sources = (ws: readonly ShellWord[]): PathUse[] =>
        ws.flatMap((w) => (aliased ? readAndWritten(w, recursive) : [use(w, 'read', true, recursive)]));
      const targetDir = a.values.find((v) => v.kind === 'write-dir');
      // `cp --parents .git/config d` writes d/.git/config: the source's whole path below the target.
      const parents = (dir: ShellWord, from: readonly ShellWord[]): ShellWord[] =>
        a.flags.has('--parents')
          ? from.map((src) =>
              dir.dynamic || src.dynamic || src.text.startsWith('/') || src.text.includes('..')
                ? { text: `${dir.text}/…`, dynamic: true, glob: false }
                : { ...dir, text: `${dir.text.replace(/\/+$/, '')}/${src.text}`, glob: dir.glob || src.glob },
            )
          : [];
      const symbolic = links(name, a);
      if (symbolic !== null) {
        const from = targetDir ? ops : ops.slice(0, -1);
        const dest = targetDir?.word ?? ops[ops.length - 1];
        if (dest) {
          const named = targetDir ? [] : from.length === 1 && ops.length === 2 ? [dest] : [];
          for (const [k, to] of from.entries()) {
            for (const at of [...named, ...intoDirectory(dest, [to])]) linksMade.push({ at, to, symbolic });
            if (k > 16) break;
          }
        }
      }
      if (targetDir) {
        return [
          ...sources(ops),
          ...[...intoDirectory(targetDir.word, ops), ...parents(targetDir.word, ops)].map((w) =>
            use(w, 'write', true, recursive),
          ),
        ];
      }
      if (ops.length === 0) return [];
      if (ops.length === 1) return sources(ops);
      const dest = ops[ops.length - 1];
      const from = ops.slice(0, -1);
      // `cp x config` writes config/x when config is a directory (the usual case): both are written.
      return [
        ...sources(from),
        use(dest, 'write', true, recursive),
        ...[...intoDirectory(dest, from), ...parents(dest, from)].map((w) =>
          use(w, 'write', true, recursive),
        ),
      ];
    }
  }
}

/**
 * Options of programs the analysis does not know that usually name a directory the program works in
 * (`tar -xf x.tar -C config`, `unzip -d dir`, `make -C dir`, `--target-directory=dir`).
 */
const DIRECTORY_OPTION =
  /^(-[CdtP]|--(directory|target-directory|output-dir|destination|prefix|dest|chdir|cwd|root))$/;

/**
 * Path-like parts of a word that holds more than a path (`-c '!rm src/app.ts'`, `"select
 * writefile('config/prod.env', …)"`): a name with a slash, or a dot file.
 */
const PATH_FRAGMENT = /(?:~|\.{1,2})?\/?[\w.-]+(?:\/[\w.-]+)+\/?|(?<![\w./-])\.[\w][\w.-]*/g;

/**
 * A program the analysis does not know: every operand and option value may be a file, of any use, and so
 * may the paths written inside its other words (a command or query it is given as text); the value of a
 * directory option may be a directory it works through, so a rule about anything inside it may match too.
 */
function unknownProgram(name: string, args: readonly ShellWord[]): ProgramFacts {
  const out = facts();
  const a = parseArgs(args, { unknown: true });
  const directories = new Set<ShellWord>();
  for (let i = 0; i < args.length; i++) {
    const t = args[i].text;
    const eq = t.indexOf('=');
    if (DIRECTORY_OPTION.test(t) && args[i + 1]) directories.add(args[i + 1]);
    else if (t.startsWith('--') && eq > 0 && DIRECTORY_OPTION.test(t.slice(0, eq)))
      out.paths.push(use({ ...args[i], text: t.slice(eq + 1) }, 'unknown', false, true));
  }
  for (const w of args) {
    if (w.dynamic) continue;
    for (const m of w.text.matchAll(PATH_FRAGMENT)) {
      if (m[0] !== w.text) out.paths.push(use({ ...w, text: m[0], glob: false }, 'unknown', false));
    }
  }
  for (const w of [...a.operands, ...a.unknownValues]) {
    out.paths.push(treeIfDirectory(use(w, 'unknown', false, directories.has(w))));
    // `dd of=FILE`, `make DESTDIR=dir`: the value may be a file too.
    const eq = w.text.indexOf('=');
    if (!w.dynamic && eq > 0 && eq < w.text.length - 1)
      out.paths.push(use({ ...w, text: w.text.slice(eq + 1) }, 'unknown', false));
  }
  out.problem = `${name} is not a known read-only command`;
  out.unknown = true;
  return out;
}

/** Facts of `find`: starting points read recursively, actions that write or run. */
function findFacts(args: readonly ShellWord[]): ProgramFacts {
  const out = facts();
  const VALUE_TESTS = new Set(
    (
      '-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -maxdepth -mindepth -perm ' +
      '-user -group -uid -gid -size -mtime -atime -ctime -mmin -amin -cmin -used -links -inum -printf -lname ' +
      '-ilname -fstype -context -regextype -D -O -newerXY'
    ).split(' '),
  );
  const READ_TESTS = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);
  const WRITE_ACTIONS = new Set(['-fprint', '-fprint0', '-fls']);
  let starting = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const t = w.text;
    if (w.dynamic || w.glob) {
      // A run-time word or a glob may become an action (`-delete`, a file named -fprint...).
      out.problem ??= 'an argument of find only known at run time could be an action that writes or runs';
      if (starting) out.paths.push(use(w, 'read', true, true));
      continue;
    }
    // just-bash's find takes every word before the first `-…`, `(`, `)` or `!` as a starting point, a `,`
    // among them (`find src , config -delete` deletes in config).
    if (starting && !t.startsWith('-') && t !== '(' && t !== '!') {
      out.paths.push(use(w, 'read', true, true));
      continue;
    }
    starting = false;
    if (/^-(exec|execdir|ok|okdir)$/.test(t)) {
      // The command itself is analysed by the walker (findExecCommands); skip to its end.
      while (i + 1 < args.length && args[i + 1].text !== ';' && args[i + 1].text !== '+') i++;
      i++;
      continue;
    }
    if (t === '-delete') {
      out.problem = 'find -delete deletes files';
      out.destructive = true;
    } else if (WRITE_ACTIONS.has(t) || t === '-fprintf') {
      out.problem = `find ${t} writes a file`;
      if (args[i + 1]) out.paths.push(use(args[i + 1], 'write', true));
      i += t === '-fprintf' ? 2 : 1;
    } else if (READ_TESTS.has(t) || /^-newer[a-zA-Z]{2}$/.test(t)) {
      if (args[i + 1]) out.paths.push(use(args[i + 1], 'read', true));
      i++;
    } else if (VALUE_TESTS.has(t)) i++;
  }
  // No starting point: the current directory.
  if (!out.paths.some((p) => p.recursive))
    out.paths.push(use({ text: '.', dynamic: false, glob: false }, 'read', true, true));
  // -delete deletes what it finds: below every starting point.
  if (out.destructive)
    out.paths = out.paths.map((p) => (p.recursive && p.access === 'read' ? { ...p, access: 'write' } : p));
  return out;
}

/** Options of name-taking builtins whose value is not a name (`read -p PROMPT`), by builtin. */
const NAME_BUILTIN_VALUES: Record<string, string> = {
  read: 'dinNptu',
  mapfile: 'dnOsuc',
  readarray: 'dnOsuc',
};

/**
 * A builtin that takes variable names (`export`, `unset`, `read`, `declare`, `let`, `printf -v`): it
 * changes the session, and the shell evaluates a subscript in a name (`unset 'a[$(cmd)]'`), an integer
 * variable's value (`declare -i x='a[$(cmd)]'`) and `let`'s expressions as code.
 */
function nameBuiltinFacts(name: string, args: readonly ShellWord[]): ProgramFacts {
  const out = facts();
  out.changesState = true;
  out.problem = name === 'printf' ? 'printf -v assigns a variable' : `${name} changes shell variables`;
  const integer = args.some((a) => /^-[a-zA-Z]*i/.test(a.text));
  // `declare -n r='a[$(cmd)]'`: a nameref to an array element evaluates the subscript where r is used.
  const nameref =
    ['declare', 'typeset', 'local'].includes(name) && args.some((a) => /^-[a-zA-Z]*n/.test(a.text));
  const valued = NAME_BUILTIN_VALUES[name] ?? '';
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (!w.dynamic && /^[-+][a-zA-Z]+$/.test(w.text)) {
      if (name === 'mapfile' || name === 'readarray') {
        if (w.text.includes('C')) {
          out.evaluates.push(`${name} -C runs a callback`);
          out.opaque = true;
        }
      }
      if (valued.includes(w.text[w.text.length - 1])) i++;
      continue;
    }
    const target = name === 'let' ? w.text : w.text.split('=')[0];
    // `export PATH=$PWD/bin:$PATH`: a run-time value, but the name is static.
    if (w.dynamic && (name === 'let' || /[$`]/.test(target) || !w.text.includes('='))) {
      out.evaluates.push(
        `${name} takes a variable name only known at run time (a subscript in it is evaluated)`,
      );
      continue;
    }
    if (name === 'let' || target.includes('[')) {
      out.evaluates.push(`${name} evaluates ${w.text} as arithmetic`);
      if (/[$`]/.test(w.text)) out.evaluatedTexts.push(w.text);
    }
    if (nameref && w.text.includes('=') && w.text.slice(w.text.indexOf('=') + 1).includes('[')) {
      const value = w.text.slice(w.text.indexOf('=') + 1);
      out.evaluates.push(
        `${name} -n names ${value}: its subscript is evaluated as arithmetic where ${target} is used`,
      );
      if (/[$`]/.test(value)) out.evaluatedTexts.push(value);
    }
    if (integer && w.text.includes('=')) {
      const value = w.text.slice(w.text.indexOf('=') + 1);
      if (!/^-?\d+$/.test(value)) {
        out.evaluates.push(`${name} -i evaluates the value of ${target} as arithmetic`);
        if (/[$`]/.test(value)) out.evaluatedTexts.push(value);
      }
    }
  }
  return out;
}

/**
 * True when the analysis knows what the program `name` does (it has a reader or a spec for it, or reads
 * it as a wrapper of the command after it: env, timeout, nice...).
 */
export function isKnownProgram(name: string): boolean {
  return name in WRAPPERS || !programFacts([{ text: name, dynamic: false, glob: false }]).unknown;
}

/**
 * What a program (quote-removed words, program first, wrappers already removed) does with its
 * arguments. Never throws.
 */
export function programFacts(words: readonly ShellWord[]): ProgramFacts {
  const [program, ...args] = words;
  if (!program) return facts();
  if (program.dynamic || program.glob) {
    return {
      ...unknownProgram('the program', args),
      problem: 'the program name is only known at run time',
      opaque: true,
    };
  }
  const name = program.text;
  if (name === 'sed') return analyzeSed(args);
  if (/^(g|m|n)?awk$/.test(name)) return analyzeAwk(args);
  if (name === 'find') return findFacts(args);
  if (name === 'git') return gitFacts(args);
  if (name === 'tar') return tarFacts(args);
  if (name === 'test' || name === '[') return analyzeTest(name, args);
  if (name === 'printf' && (args[0]?.dynamic || args[0]?.text.startsWith('-v'))) {
    // `printf -v NAME`: the name (a subscript in it is evaluated); a run-time first word may be -v.
    const target = args[0].text === '-v' ? args[1] : { ...args[0], text: args[0].text.slice(2) };
    return nameBuiltinFacts('printf', target ? [target] : []);
  }
  if (NAME_BUILTINS.has(name) && name !== 'printf') return nameBuiltinFacts(name, args);
  if (name === 'cd' || name === 'pushd' || name === 'popd') {
    // Moving the shell changes no file: read-only, though not safe beside other calls.
    const out = facts();
    out.changesState = true;
    for (const w of args)
      if (!/^-[LPe@]+$/.test(w.text) && !/^[+-]\d+$/.test(w.text)) out.paths.push(use(w, 'read', true));
    return out;
  }
  if (changesShellState(name)) {
    const out = facts();
    out.changesState = true;
    out.problem = `${name} changes the shell session`;
    // `enable -f LIB NAME` loads a builtin's code from a shared object: code nobody sees.
    if (name === 'enable' && args.some((w) => w.dynamic || /^-[a-zA-Z]*f/.test(w.text))) {
      out.opaque = true;
      out.problem = 'enable -f loads code from a shared object';
    }
    return out;
  }
  const spec = SPECS[name];
  if (!spec) return unknownProgram(name, args);
  const first = specFacts(name, spec, args);
  if (first.separateValues.length === 0) return first.facts;
  return withoutSeparateValues(
    name,
    first,
    specFacts(name, spec, args, { separateValues: false, keepNumbers: spec.operands !== 'pattern' }),
  );
}

/**
 * The facts as the words read when no option takes the next word: an option table may say an option
 * takes a value that the program takes only glued or not at all (`diff --unified .env x` compares .env),
 * so what that reading names may be files too (maybe: rules then ask), and a file it writes makes the
 * program not read-only.
 */
function withoutSeparateValues(name: string, first: SpecReading, second: SpecReading): ProgramFacts {
  const { facts } = first;
  const other = second.facts;
  const key = (p: PathUse) => `${p.access}\0${p.word.text}\0${p.recursive}`;
  const known = new Set(facts.paths.map(key));
  const more = other.paths.filter((p) => !known.has(key(p))).map((p) => ({ ...p, sure: false }));
  const write = more.find((p) => p.access === 'write');
  const scripts = other.scripts.filter((t) => !facts.scripts.includes(t));
  const why = `if ${first.separateValues[0]} takes no separate value`;
  return {
    ...facts,
    paths: [...facts.paths, ...more],
    scripts: [...facts.scripts, ...scripts],
    opaque: facts.opaque || other.opaque,
    problem:
      facts.problem ??
      (write
        ? `${name} may write ${write.word.text} (${why})`
        : second.effects[0] !== undefined
          ? `${second.effects[0]} (${why})`
          : other.opaque || scripts.length > 0
            ? other.problem
            : null),
  };
}

/** A program's words read with its spec: the facts, the options that took the next word, flag effects. */
interface SpecReading {
  facts: ProgramFacts;
  separateValues: string[];
  effects: string[];
}

/** The facts of a program the analysis has a spec for, and the options that took the next word. */
function specFacts(name: string, spec: Spec, args: readonly ShellWord[], parse?: ParseOptions): SpecReading {
  const a = parseArgs(args, spec.options, parse);
  const out = facts();
  const recursive = isRecursive(spec, a);
  const made: LinkUse[] = [];
  const operandUses = operandPaths(name, spec, a, recursive, made);
  const inPlace = spec.inPlace?.find((f) => a.flags.has(f));
  out.paths.push(...operandUses);
  if (spec.wordsAreFiles) {
    // The words the options took (`--`, `-r`, `-s`'s value) are files too, as the sandbox reads them.
    for (const w of args) if (!a.operands.includes(w) && !isStdin(w)) out.paths.push(use(w, 'read', true));
  }
  if (inPlace) {
    for (const p of operandUses) if (p.access === 'read') out.paths.push({ ...p, access: 'write' });
  }
  if (made.length > 0) out.links = made;
  for (const v of a.values) {
    const access = valueAccess(v.kind);
    if (access) out.paths.push(use(v.word, access, true, v.kind === 'write-dir'));
  }
  // The files a list names are read too (`sort --files0-from=LIST` prints them).
  const list = a.values.find((v) => v.kind === 'list');
  if (spec.readsNamed?.(a) || list) {
    out.paths.push(use({ text: `(a file ${name} names)`, dynamic: true, glob: false }, 'read', false));
  }
  // Values of options the spec does not know: maybe files.
  for (const w of a.unknownValues) out.paths.push(use(w, 'unknown', false));
  // A command line the program runs with `sh -c`: walked as shell when it is known.
  for (const v of a.values) {
    if (v.kind !== 'shell') continue;
    if (v.word.dynamic) out.opaque = true;
    else out.scripts.push(v.word.text);
  }
  out.destructive = spec.destructive === true;
  const done = { facts: out, separateValues: a.separateValues, effects: a.effects };
  if (spec.readOnly !== true) {
    out.problem = spec.readOnly;
    return done;
  }
  const shell = a.values.find((v) => v.kind === 'shell');
  const exec = a.values.find((v) => v.kind === 'exec');
  const write = a.values.find((v) => v.kind === 'write' || v.kind === 'write-dir');
  if (exec) {
    out.problem = `${name} ${exec.option} runs a program`;
    out.opaque = true;
  } else if (shell) out.problem = `${name} ${shell.option} runs a command`;
  else if (write) out.problem = `${name} ${write.option} writes a file`;
  else if (inPlace) out.problem = `${name} ${inPlace} rewrites its files`;
  else if (a.effects.length > 0) out.problem = a.effects[0];
  else if (a.dynamicOption && dangerous(spec)) {
    out.problem = `an argument of ${name} only known at run time could be an option that writes or runs`;
  } else if ((name === 'uniq' || name === 'xxd') && out.paths.some((p) => p.access === 'write'))
    out.problem = `${name} IN OUT writes OUT`;
  else out.problem = spec.check?.(a) ?? null;
  return done;
}
