/**
 * The forms of a command deny and ask rules are matched against, each marked sure (this is what runs)
 * or not (it only looks like it). A rule matching a sure form denies; one matching only an unsure form
 * asks (see the engine in core/permissions).
 */
import { foldLookalikes } from './lookalike.ts';
import type { ShellForm, ShellWord } from './types.ts';

/** Leading options of a program that take a value in the next word (`git -C dir push`). */
const GLOBAL_VALUE_OPTIONS: Record<string, readonly string[]> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix'],
  npm: ['--prefix', '-w', '--workspace', '--userconfig'],
  npx: ['-p', '--package', '--prefix'],
  pnpm: ['-C', '--dir', '--filter', '-F'],
  yarn: ['--cwd'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user'],
  cargo: ['-C', '--manifest-path', '--config', '-Z'],
  make: ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs'],
};

const formKey = (ws: readonly ShellWord[]): string =>
  ws.map((w) => (w.dynamic ? `\u0000${w.text}` : w.text)).join('\u0001');

/** A plausible program name: a later word starting with one may be a program a wrapper runs. */
const COMMAND_LIKE = /^[^\s=-][^\s=]*$/;

/** Separators of commands inside a word that holds a command line. */
const LINE_SEPARATORS = /\s*(?:;|&&|\|\||\||&|\n)\s*/;

/**
 * The command lines a word may hold, split into words (quotes are not taken apart: a rough reading,
 * only ever used to ask). Empty for a word with no space: it cannot hold a command with arguments.
 */
function commandLines(text: string): ShellWord[][] {
  // `--to-command=rm x`, `core.sshCommand=rm x`: the value after `=` is the command line.
  const eq = text.search(/[=\s]/);
  const value = eq >= 0 && text[eq] === '=' ? text.slice(eq + 1) : text;
  if (!/\s/.test(value.trim())) return [];
  return value
    .split(LINE_SEPARATORS)
    .map((part) =>
      part
        .replace(/^['"(]+|['")]+$/g, '')
        .split(/\s+/)
        .filter(Boolean),
    )
    .filter((words) => words.length > 0)
    .slice(0, 16)
    .map((words) =>
      words.map((t) => ({ text: t.replace(/^['"]+|['"]+$/g, ''), dynamic: false, glob: false })),
    );
}

const isOption = (w: ShellWord | undefined): boolean =>
  w !== undefined && !w.dynamic && w.text.startsWith('-') && w.text !== '-';

/**
 * The program with its leading options left out (`git -C . push` → `git push`), sure when the options'
 * values are known (the program's global options) or when no option takes a value; else unsure forms
 * for each way of reading the options.
 */
function withoutLeadingOptions(ws: readonly ShellWord[]): ShellForm[] {
  const [program, ...rest] = ws;
  if (!program || !isOption(rest[0])) return [];
  const valued = GLOBAL_VALUE_OPTIONS[program.text] ?? [];
  // Known value options: skip them with their values.
  let i = 0;
  let known = true;
  while (i < rest.length && isOption(rest[i])) {
    const t = rest[i].text;
    if (t === '--') {
      i++;
      break;
    }
    const name = t.split('=')[0];
    if (valued.includes(name) && !t.includes('=')) i += 2;
    else {
      if (!GLOBAL_VALUE_OPTIONS[program.text] && i + 1 < rest.length && !isOption(rest[i + 1])) known = false;
      i++;
    }
  }
  const forms: ShellForm[] = [{ words: [program, ...rest.slice(i)], sure: known }];
  // Unknown option arity: also each option taking the next word as its value.
  if (!known) {
    for (let m = 1; m <= rest.length; m++) {
      if (isOption(rest[m - 1])) forms.push({ words: [program, ...rest.slice(m + 1)], sure: false });
    }
  }
  return forms;
}

export interface FormOptions {
  /** The command cannot run other commands or change files (its later words are plain arguments). */
  readOnly: boolean;
  /** It runs code the analysis cannot see: every rule may match. */
  opaque: boolean;
  /** The program name is a function or alias defined in the line: what runs is not surely the program. */
  shadowed: boolean;
}

/**
 * The forms deny and ask rules must match: as written, unwrapped, each inner command, the program's
 * basename (`/bin/rm` → `rm`) and the program without its leading options (sure); look-alike letters
 * folded and, for commands that are not read-only, every later word that could be a program (unsure:
 * `docker rm web` may or may not run rm, and only asks).
 */
export function commandForms(
  written: readonly ShellWord[],
  inner: readonly ShellWord[],
  extra: readonly (readonly ShellWord[])[],
  options: FormOptions,
): ShellForm[] {
  const base: ShellForm[] = [
    { words: written, sure: true },
    { words: inner, sure: true },
    ...extra.map((words) => ({ words, sure: true })),
  ];
  for (const ws of [inner, ...extra]) base.push(...withoutLeadingOptions(ws));
  if (!options.readOnly) {
    for (const ws of [written, ...extra]) {
      for (let k = 1; k < ws.length; k++) {
        if (ws[k].dynamic) continue;
        if (COMMAND_LIKE.test(ws[k].text)) base.push({ words: ws.slice(k), sure: false });
        // A word holding a command line (`su -c 'rm -rf x'`, `ssh h 'rm x'`, `--to-command=rm x`) may be
        // run by the program: each command-like word of it may start a command.
        for (const line of commandLines(ws[k].text)) {
          for (let j = 0; j < line.length; j++) {
            if (COMMAND_LIKE.test(line[j].text)) base.push({ words: line.slice(j), sure: false });
          }
        }
      }
    }
  }
  const forms: ShellForm[] = [];
  const index = new Map<string, number>();
  const add = (given: readonly ShellWord[], sure: boolean): void => {
    if (given.length === 0) return;
    // A glob expands to the names of files that exist when it runs (`git pu?h` after `touch push`).
    const words = given.map((w) => (w.glob && !w.dynamic ? { ...w, dynamic: true } : w));
    const key = formKey(words);
    const seen = index.get(key);
    if (seen !== undefined) {
      if (sure && !forms[seen].sure) forms[seen] = { words, sure };
      return;
    }
    index.set(key, forms.length);
    forms.push({ words, sure });
  };
  for (const form of base) {
    const ws = form.words;
    if (ws.length === 0) continue;
    const sure = form.sure && !options.shadowed;
    add(ws, sure);
    const [program, ...rest] = ws;
    const slash = program.text.lastIndexOf('/');
    const renamed =
      !program.dynamic && slash >= 0 && slash < program.text.length - 1
        ? [{ ...program, text: program.text.slice(slash + 1) }, ...rest]
        : ws;
    if (renamed !== ws) add(renamed, sure);
    // Look-alikes (`rм`, `RM`, `r\u200bm`) are another program: they may only ask.
    const folded = renamed.map((w) => foldLookalikes(w.text));
    if (folded.some((t, k) => t !== renamed[k].text)) {
      add(
        renamed.map((w, k) => ({ ...w, text: folded[k] })),
        false,
      );
    }
  }
  if (options.opaque) add([{ text: '…', dynamic: true, glob: false }], false);
  return forms;
}
