/**
 * Reading a program's arguments the way getopt does: short clusters (`-rno FILE`, `-oFILE`), long
 * options with `=` or the next word, unambiguous abbreviations (`--out=x` is `--output=x`), `--` ending
 * the options, options after operands (unless the program stops at its first operand). A program's
 * spec says which options take a value and what the value is; everything else is a flag.
 */
import type { PathAccess, ShellWord } from './types.ts';

/** What an option's value is. */
export type ValueKind =
  /** A file the program reads / writes. */
  | 'read'
  /** A file of file names (`--files0-from`): read, and so is each file it names (known at run time). */
  | 'list'
  | 'write'
  /** A directory the program writes into. */
  | 'write-dir'
  /** A program the program runs (its name, maybe with arguments). */
  | 'exec'
  /** A shell command line the program runs with `sh -c` (`split --filter`, `tar --to-command`). */
  | 'shell'
  /** Anything else (a number, a pattern, a format). */
  | 'value';

export interface OptionSpec {
  /** Short options that take a value, by letter. A `?` after the kind: the value is optional (glued only). */
  short?: Record<string, ValueKind | `${ValueKind}?`>;
  /** Long options (with `--`) that take a value. */
  long?: Record<string, ValueKind | `${ValueKind}?`>;
  /** Long options that take two words, a name and then a value of this kind (`jq --rawfile NAME FILE`). */
  pairs?: Record<string, ValueKind>;
  /** Flags that make the program write or run something, and what (for the message). */
  effects?: Record<string, string>;
  /** The program's options are not known: any letter may take a glued value (`-oFILE`). */
  unknown?: boolean;
}

/** An option value the spec names, with the option it came with. */
export interface OptionValue {
  option: string;
  kind: ValueKind;
  word: ShellWord;
}

export interface ParsedArgs {
  operands: ShellWord[];
  values: OptionValue[];
  /** Why the flags make the program write or run something. */
  effects: string[];
  /** Every flag given (`-r`, `--recursive`), canonical long names after abbreviation. */
  flags: Set<string>;
  /** Values glued to or following options the spec does not know (a file, maybe). */
  unknownValues: ShellWord[];
  /** A word only known at run time (or a glob) where an option could be: it may become any option. */
  dynamicOption: boolean;
  /** Options that took the next word as a value that is not a file (`--unified 3`, `-w 8`). */
  separateValues: string[];
}

export interface ParseOptions {
  /**
   * False: no option takes the next word as a value that is not a file or a number (it is read as an
   * operand). Where a table says an option takes a value that the program takes optionally, or not at all
   * (GNU's `--color[=WHEN]`), the words mean that.
   */
  separateValues?: boolean;
  /**
   * With separateValues false: a number still is a value (`xxd -l 16 f`, `head -n 5 f`). Not for a program
   * whose first operand is its pattern: there the number may be the pattern, and the next word a file.
   */
  keepNumbers?: boolean;
  /**
   * The options end at the first operand, as POSIX wants (awk, whose program is its first operand:
   * `awk 'PROG' -e 1` reads the files `-e` and `1`). Without it, options may follow operands (GNU).
   */
  stopAtOperand?: boolean;
}

const isNumber = (w: ShellWord | undefined): boolean => !!w && !w.dynamic && /^[-+]?\d+$/.test(w.text);

function lookup(table: Record<string, string> | undefined, name: string): { name: string; value?: string } {
  if (!table) return { name };
  if (name in table) return { name, value: table[name] };
  // getopt_long takes an unambiguous prefix; a prefix of a dangerous option is read as it (safe side).
  // Of several candidates, the one that runs or writes something counts.
  const rank = (v: string) =>
    ['exec', 'shell', 'write', 'write-dir', 'read'].findIndex((k) => v.startsWith(k)) >>> 0;
  const candidates = Object.keys(table)
    .filter((k) => k.startsWith(name))
    .sort((a, b) => rank(table[a]) - rank(table[b]));
  return candidates.length >= 1 ? { name: candidates[0], value: table[candidates[0]] } : { name };
}

const parseKind = (v: string): { kind: ValueKind; optional: boolean } =>
  v.endsWith('?')
    ? { kind: v.slice(0, -1) as ValueKind, optional: true }
    : { kind: v as ValueKind, optional: false };

/** Reads `args` (the words after the program) with `spec`. Never throws. */
export function parseArgs(
  args: readonly ShellWord[],
  spec: OptionSpec,
  parse: ParseOptions = {},
): ParsedArgs {
  const separate = parse.separateValues !== false;
  const keepNumbers = parse.keepNumbers === true;
  const out: ParsedArgs = {
    operands: [],
    values: [],
    effects: [],
    flags: new Set(),
    unknownValues: [],
    dynamicOption: false,
    separateValues: [],
  };
  const effect = (flag: string) => {
    out.flags.add(flag);
    const e = spec.effects?.[flag];
    if (e) out.effects.push(e);
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const t = w.text;
    if (options && (w.dynamic || w.glob) && (t.startsWith('-') || w.dynamic || /^[*?[]/.test(t))) {
      out.dynamicOption = true;
    }
    if (!options || w.dynamic || t === '-' || !t.startsWith('-')) {
      out.operands.push(w);
      if (parse.stopAtOperand) options = false;
      continue;
    }
    if (t === '--') {
      options = false;
      continue;
    }
    const pair = spec.pairs?.[t];
    if (pair !== undefined) {
      out.flags.add(t);
      i++;
      if (i + 1 < args.length) out.values.push({ option: t, kind: pair, word: args[++i] });
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const given = eq < 0 ? t : t.slice(0, eq);
      const valued = lookup(spec.long, given);
      if (valued.value !== undefined) {
        const { kind, optional } = parseKind(valued.value);
        out.flags.add(valued.name);
        if (eq >= 0) out.values.push({ option: valued.name, kind, word: { ...w, text: t.slice(eq + 1) } });
        else if (
          !optional &&
          (separate || kind !== 'value' || isNumber(args[i + 1])) &&
          i + 1 < args.length
        ) {
          out.values.push({ option: valued.name, kind, word: args[++i] });
          if (kind === 'value') out.separateValues.push(valued.name);
        }
        continue;
      }
      const flag = lookup(spec.effects, given).name;
      effect(flag);
      if (eq >= 0) out.unknownValues.push({ ...w, text: t.slice(eq + 1) });
      continue;
    }
    // A program whose options are not known: after any letter may come a glued value (`-oFILE`).
    if (spec.unknown) {
      for (let k = 2; k < Math.min(t.length, 10); k++) out.unknownValues.push({ ...w, text: t.slice(k) });
    }
    // A short cluster: flags until a letter that takes a value.
    for (let j = 1; j < t.length; j++) {
      const letter = t[j];
      const v = spec.short?.[letter];
      if (v === undefined) {
        effect(`-${letter}`);
        continue;
      }
      const { kind, optional } = parseKind(v);
      out.flags.add(`-${letter}`);
      if (j < t.length - 1)
        out.values.push({ option: `-${letter}`, kind, word: { ...w, text: t.slice(j + 1) } });
      else if (
        !optional &&
        (separate || kind !== 'value' || (keepNumbers && isNumber(args[i + 1]))) &&
        i + 1 < args.length
      ) {
        out.values.push({ option: `-${letter}`, kind, word: args[++i] });
        if (kind === 'value') out.separateValues.push(`-${letter}`);
      }
      break;
    }
  }
  return out;
}

/** The access a value kind gives its file, or null when the value is not a file. */
export function valueAccess(kind: ValueKind): PathAccess | null {
  return kind === 'read' || kind === 'list'
    ? 'read'
    : kind === 'write' || kind === 'write-dir'
      ? 'write'
      : null;
}
