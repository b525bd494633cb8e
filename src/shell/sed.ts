/**
 * sed: its options and its script. The script can write files (`w FILE`, `W FILE`, the `w` flag of
 * `s`), read them (`r`, `R`) and run commands (`e`, the `e` flag of `s`); `-i` rewrites the input files.
 * Anything the reader does not know makes sed opaque (not read-only, and every rule may match).
 */

import type { PathUse, ProgramFacts } from './facts.ts';
import { type ParsedArgs, parseArgs } from './options.ts';
import type { ShellWord } from './types.ts';

const SED_OPTIONS = {
  short: { e: 'value', f: 'read', l: 'value', i: 'value?' } as const,
  long: {
    '--expression': 'value',
    '--file': 'read',
    '--line-length': 'value',
    '--in-place': 'value?',
  } as const,
};

const KNOWN_FLAGS = new Set(
  '-n --quiet --silent -E -r --regexp-extended -s --separate -u --unbuffered -z --null-data --posix --debug --sandbox --follow-symlinks -b --binary'.split(
    ' ',
  ),
);

/** What a sed script does. */
export interface SedScript {
  writes: string[];
  reads: string[];
  /** Commands `e COMMAND` runs. */
  commands: string[];
  /** Runs something it cannot name (`e` on the pattern space, `s///e`), or the reader got lost. */
  opaque: string | null;
}

/** Reads a sed script. Never throws; unknown syntax gives `opaque`. */
export function readSedScript(s: string): SedScript {
  const out: SedScript = { writes: [], reads: [], commands: [], opaque: null };
  let i = 0;
  const lost = (why: string): SedScript => {
    out.opaque ??= why;
    return out;
  };
  const restOfLine = (): string => {
    const end = s.indexOf('\n', i);
    const text = s.slice(i, end < 0 ? s.length : end);
    i = end < 0 ? s.length : end;
    return text;
  };
  /** Reads `text` as more commands (where sed implementations end a name or command earlier). */
  const also = (text: string) => {
    const more = readSedScript(text);
    out.writes.push(...more.writes);
    out.reads.push(...more.reads);
    out.commands.push(...more.commands);
    out.opaque ??= more.opaque;
  };
  const skipBlank = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  // Reads up to an unescaped delimiter. A bracket expression holding the delimiter is refused: sed
  // implementations disagree on whether it ends the part, and a wrong guess could hide a `w` flag. So is
  // one that starts with `]` (a literal `]` in GNU sed, an empty class in just-bash's) or holds `\]` (the
  // end of the bracket in GNU sed, an escaped `]` in just-bash's). A class (`[:alpha:]`) is no unit to
  // just-bash's sed, whose bracket ends at its first `]`: a delimiter, `]` or newline inside one refuses it
  // too (`s/[[:]/x/;r .env;#:]]/y/` reads .env there).
  const readPart = (delim: string, brackets = true): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === '\n') return false;
      if (s[i] === '\\') i += 2;
      else if (s[i] === '[' && brackets) {
        let j = i + 1;
        if (s[j] === '^') j++;
        if (s[j] === ']') return false;
        while (j < s.length && s[j] !== ']') {
          if (s[j] === delim || s[j] === '\n') return false;
          if (s[j] === '\\' && s[j + 1] === ']') return false;
          if (s[j] === '[' && ':.='.includes(s[j + 1] ?? 'x')) {
            const close = s.indexOf(`${s[j + 1]}]`, j + 2);
            if (close < 0 || /[\]\n]/.test(s.slice(j + 2, close)) || s.slice(j + 2, close).includes(delim))
              return false;
            j = close + 2;
          } else j++;
        }
        if (j >= s.length) return false;
        i = j + 1;
      } else i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const readAddress = (): boolean => {
    const c = s[i];
    if (c === '$') i++;
    else if (/[0-9]/.test(c ?? '')) {
      while (/[0-9]/.test(s[i] ?? '')) i++;
      if (s[i] === '~') {
        i++;
        while (/[0-9]/.test(s[i] ?? '')) i++;
      }
    } else if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        delim = s[i + 1] ?? '';
        i++;
      }
      i++;
      if (!delim || !readPart(delim)) return false;
      while (s[i] === 'I' || s[i] === 'M') i++;
    }
    return true;
  };
  const fileName = (kind: 'write' | 'read') => {
    skipBlank();
    const full = restOfLine().trim();
    const add = (name: string) => {
      if (!name) return;
      if (kind === 'write' && !/^\/dev\/(stdout|stderr)$/.test(name)) out.writes.push(name);
      // /dev/stdin is a plain file of just-bash's, which a link may replace: its sed reads it as any file.
      if (kind === 'read') out.reads.push(name);
    };
    // GNU sed takes the rest of the line as the name; just-bash's ends it at `;` (a `}` before it is part
    // of the name: `r a}x;r .env` reads .env there), others at `}`, and run what follows as more commands:
    // every reading counts.
    add(full);
    for (const end of [full.indexOf(';'), full.indexOf('}')]) {
      if (end < 0) continue;
      add(full.slice(0, end).trim());
      also(full.slice(end + 1));
    }
  };
  while (i < s.length) {
    skipBlank();
    const c0 = s[i];
    if (c0 === undefined) break;
    if (c0 === ';' || c0 === '\n' || c0 === '}') {
      i++;
      continue;
    }
    if (c0 === '#') {
      restOfLine();
      continue;
    }
    if (!readAddress()) return lost('an address sed cannot read');
    skipBlank();
    if (s[i] === ',') {
      i++;
      skipBlank();
      if (s[i] === '+' || s[i] === '~') {
        i++;
        while (/[0-9]/.test(s[i] ?? '')) i++;
      } else if (!readAddress()) return lost('an address sed cannot read');
    }
    skipBlank();
    while (s[i] === '!') {
      i++;
      skipBlank();
    }
    const cmd = s[i++];
    switch (cmd) {
      case '{':
        continue;
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        skipBlank();
        while (/[0-9]/.test(s[i] ?? '')) i++;
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v': {
        // A label (or v's version) ends at a blank, `;`, `}` or a newline, and what follows is the next
        // command: GNU sed and just-bash both run the `w` of `:x w FILE` (`bx w FILE` too).
        skipBlank();
        const start = i;
        while (i < s.length && !/[\s;}]/.test(s[i])) i++;
        // just-bash's sed also ends it at `{` (`:a{r FILE` runs r there; GNU sed reads one label).
        if (s.slice(start, i).includes('{'))
          return lost('a sed label holding { reads differently in sed implementations');
        continue;
      }
      case 'a':
      case 'i':
      case 'c': {
        // Text to the end of the line; `\` at a line's end continues it.
        while (i < s.length) {
          const line = restOfLine();
          const backslashes = /\\*$/.exec(line)?.[0].length ?? 0;
          // `\\` at the end: an escaped backslash to GNU sed (the text ends), a continuation to others.
          if (backslashes >= 2 && backslashes % 2 === 0 && i < s.length)
            return lost('sed text ending in an escaped backslash reads differently in sed implementations');
          if (backslashes === 0 || i >= s.length) break;
          i++;
        }
        break;
      }
      case 'r':
      case 'R':
        fileName('read');
        break;
      case 'w':
      case 'W':
        fileName('write');
        break;
      case 'e': {
        skipBlank();
        const command = restOfLine().trim();
        if (command) out.commands.push(command);
        else out.opaque ??= 'sed e runs the pattern space as a command';
        // just-bash's sed ends the command at `;` and reads what follows as more commands.
        if (command.includes(';')) also(command.slice(command.indexOf(';') + 1));
        break;
      }
      case 's':
      case 'y': {
        const delim = s[i++];
        if (delim === undefined || delim === '\\' || delim === '\n')
          return lost('a sed command it cannot read');
        if (!readPart(delim, cmd === 's') || !readPart(delim, false))
          return lost('an unterminated sed command');
        if (cmd === 'y') break;
        while (i < s.length && /[gpiImMe0-9w]/.test(s[i])) {
          const flag = s[i++];
          if (flag === 'e') out.opaque ??= 'sed s///e runs the result as a command';
          if (flag === 'w') {
            fileName('write');
            break;
          }
        }
        break;
      }
      default:
        return lost(`sed command ${JSON.stringify(cmd ?? '')} is not known to be read-only`);
    }
    skipBlank();
    if (i < s.length && !';\n}#'.includes(s[i])) return lost('trailing text after a sed command');
  }
  return out;
}

const word = (text: string): ShellWord => ({ text, dynamic: false, glob: false });

/** Where `sed -iSUFFIX` may write the backup of `file` (relative to the cwd, and to the file's directory). */
function backupNames(file: ShellWord, suffix: ShellWord): ShellWord[] {
  if (file.dynamic || suffix.dynamic)
    return [{ text: `${file.text}${suffix.text}`, dynamic: true, glob: false }];
  if (!suffix.text.includes('*')) return [{ ...file, text: `${file.text}${suffix.text}` }];
  const slash = file.text.lastIndexOf('/');
  const name = suffix.text.replaceAll('*', file.text.slice(slash + 1));
  const names = [name];
  if (slash >= 0 && !name.startsWith('/')) names.push(`${file.text.slice(0, slash + 1)}${name}`);
  return names.map((text) => ({ ...file, text }));
}

/** What a reading of sed's words takes as scripts, script files and input files. */
interface SedWords {
  scripts: ShellWord[];
  scriptFiles: ShellWord[];
  files: ShellWord[];
  inPlace: boolean;
}

/**
 * The words as GNU sed reads them (getopt): the first operand is the script when no -e or -f is given
 * anywhere.
 */
function gnuSedWords(a: ParsedArgs): SedWords {
  const scripts = a.values.filter((v) => v.option === '-e' || v.option === '--expression').map((v) => v.word);
  const scriptFiles = a.values.filter((v) => v.option === '-f' || v.option === '--file').map((v) => v.word);
  const files = [...a.operands];
  if (scripts.length === 0 && scriptFiles.length === 0) {
    const first = files.shift();
    if (first) scripts.push(first);
  }
  return { scripts, scriptFiles, files, inPlace: a.flags.has('-i') || a.flags.has('--in-place') };
}

/**
 * The words as just-bash's sed reads them, which is not getopt: a word is the script when no -e or -f
 * came before it (`sed 'w FILE' -e p f` runs the w); a cluster holding e takes the next word as a script
 * only without n or i (`-en S` leaves S to be the script, and `-ei` edits in place), one holding f and no
 * e the next as a script file. A long option or a letter it does not know stops it (nothing runs: null).
 */
function justBashSedWords(args: readonly ShellWord[]): SedWords | null {
  const out: SedWords = { scripts: [], scriptFiles: [], files: [], inPlace: false };
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const t = w.text;
    const next = (into: ShellWord[]) => {
      if (i + 1 < args.length) into.push(args[++i]);
    };
    if (['-n', '--quiet', '--silent', '-E', '-r', '--regexp-extended'].includes(t)) continue;
    if (t === '--in-place' || t.startsWith('-i')) out.inPlace = true;
    else if (t === '-e') next(out.scripts);
    else if (t === '-f') next(out.scriptFiles);
    else if (t.startsWith('--')) return null;
    else if (t.startsWith('-') && t.length > 1) {
      if (/[^nefiEr]/.test(t.slice(1))) return null;
      if (t.includes('i')) out.inPlace = true;
      if (t.includes('e') && !t.includes('n') && !t.includes('i')) next(out.scripts);
      if (t.includes('f') && !t.includes('e')) next(out.scriptFiles);
    } else if (t !== '-' && out.scripts.length === 0 && out.scriptFiles.length === 0) out.scripts.push(w);
    else out.files.push(w);
  }
  return out;
}

/** Facts of a sed call. Where GNU sed and just-bash's read the words differently, both readings count. */
export function analyzeSed(args: readonly ShellWord[]): ProgramFacts {
  const a = parseArgs(args, SED_OPTIONS);
  const paths: PathUse[] = [];
  const facts: ProgramFacts = {
    paths,
    problem: null,
    scripts: [],
    opaque: false,
    evaluates: [],
    evaluatedTexts: [],
    destructive: false,
    changesState: false,
  };
  const gnu = gnuSedWords(a);
  const readings = [gnu, justBashSedWords(args) ?? gnu];
  const union = (pick: (r: SedWords) => ShellWord[]) => [...new Set(readings.flatMap(pick))];
  const scripts = union((r) => r.scripts);
  const scriptFiles = union((r) => r.scriptFiles);
  const operands = union((r) => r.files);
  const inPlace = readings.some((r) => r.inPlace);
  const sandbox = a.flags.has('--sandbox');
  // In place, each file is read (what the script prints or writes elsewhere is its content) and rewritten.
  // `-i.bak` writes a backup beside each file; a suffix with `*` names it (the file's name for each `*`),
  // and one with a `/` puts it in another directory (`-i'.git/*'` writes .git/FILE).
  const suffix = a.values.find((v) => v.option === '-i' || v.option === '--in-place')?.word;
  for (const w of operands) {
    paths.push({ word: w, access: 'read', sure: true, recursive: false });
    if (inPlace) paths.push({ word: w, access: 'write', sure: true, recursive: false });
    if (!suffix) continue;
    for (const backup of backupNames(w, suffix))
      paths.push({ word: backup, access: 'write', sure: true, recursive: false });
  }
  for (const f of scriptFiles) {
    paths.push({ word: f, access: 'read', sure: true, recursive: false });
    facts.opaque = !sandbox;
    facts.problem = 'sed -f runs a script from a file';
  }
  const unknown = [...a.flags].find(
    (f) =>
      !KNOWN_FLAGS.has(f) &&
      !['-e', '--expression', '-f', '--file', '-i', '--in-place', '-l', '--line-length'].includes(f),
  );
  if (unknown) facts.problem ??= `sed option ${unknown} is not known to be read-only`;
  if (a.dynamicOption)
    facts.problem ??= 'an argument of sed only known at run time could be an option that writes';
  for (const w of scripts) {
    if (w.dynamic) {
      facts.opaque = true;
      facts.problem ??= 'the sed script is only known at run time';
      continue;
    }
    const script = readSedScript(w.text);
    if (script.opaque) {
      facts.opaque = !sandbox;
      facts.problem ??= script.opaque;
    }
    for (const f of script.writes)
      paths.push({ word: word(f), access: 'write', sure: true, recursive: false });
    for (const f of script.reads) paths.push({ word: word(f), access: 'read', sure: true, recursive: false });
    facts.scripts.push(...(sandbox ? [] : script.commands));
    if (!sandbox && (script.writes.length > 0 || script.commands.length > 0)) {
      facts.problem ??=
        script.writes.length > 0 ? 'the sed script writes a file' : 'the sed script runs a command';
    }
  }
  if (inPlace) {
    facts.problem ??= 'sed -i rewrites its input files';
    facts.destructive = true;
  }
  if (scripts.length === 0 && scriptFiles.length === 0) facts.problem ??= 'sed without a script';
  return facts;
}
