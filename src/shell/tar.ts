/**
 * tar: its mode (create, extract, list...), the archive, the directory it works in, and the options that
 * run commands. Extracting writes whatever names the archive holds below the directory (`-C DIR`, else
 * the current one), anywhere with -P; creating reads its operands whole.
 */
import { emptyProgramFacts, type ProgramFacts, pathUse as use } from './facts.ts';
import type { ShellWord } from './types.ts';

/** Short options that take a value, and what the value is. */
const SHORT_VALUES: Record<string, 'archive' | 'dir' | 'read' | 'exec' | 'both' | 'value'> = {
  f: 'archive',
  C: 'dir',
  T: 'read',
  X: 'read',
  I: 'exec',
  F: 'exec',
  g: 'both',
  b: 'value',
  H: 'value',
  K: 'value',
  L: 'value',
  N: 'value',
  V: 'value',
};

const LONG_VALUES: Record<
  string,
  'archive' | 'dir' | 'read' | 'write' | 'exec' | 'shell' | 'both' | 'value'
> = {
  '--file': 'archive',
  '--directory': 'dir',
  '--files-from': 'read',
  '--exclude-from': 'read',
  '--use-compress-program': 'exec',
  '--info-script': 'exec',
  '--new-volume-script': 'exec',
  '--rsh-command': 'exec',
  '--rmt-command': 'exec',
  '--to-command': 'shell',
  '--listed-incremental': 'both',
  '--index-file': 'write',
  '--volno-file': 'both',
  '--exclude': 'value',
  '--transform': 'value',
  '--xform': 'value',
  '--owner': 'value',
  '--group': 'value',
  '--mode': 'value',
  '--mtime': 'value',
  '--format': 'value',
  '--newer': 'value',
  '--after-date': 'value',
  '--newer-mtime': 'value',
  '--label': 'value',
  '--blocking-factor': 'value',
  '--strip-components': 'value',
  '--suffix': 'value',
  '--checkpoint-action': 'value',
  '--record-size': 'value',
  '--tape-length': 'value',
  '--starting-file': 'value',
  '--quoting-style': 'value',
  '--sort': 'value',
  '--warning': 'value',
};

const MODES: Record<string, string> = {
  c: 'create',
  x: 'extract',
  t: 'list',
  r: 'append',
  u: 'append',
  A: 'append',
  d: 'diff',
  '--create': 'create',
  '--extract': 'extract',
  '--get': 'extract',
  '--list': 'list',
  '--append': 'append',
  '--update': 'append',
  '--catenate': 'append',
  '--concatenate': 'append',
  '--diff': 'diff',
  '--compare': 'diff',
  '--delete': 'delete',
};

const longName = (given: string): string => {
  const all = [
    ...Object.keys(LONG_VALUES),
    ...Object.keys(MODES).filter((k) => k.startsWith('--')),
    '--absolute-names',
    '--to-stdout',
  ];
  return all.includes(given) ? given : (all.find((k) => k.startsWith(given)) ?? given);
};

const DOT: ShellWord = { text: '.', dynamic: false, glob: false };

/** `name` inside `dir` (a run-time part makes the whole run-time). */
const within = (dir: ShellWord, name: ShellWord): ShellWord =>
  dir.dynamic || name.dynamic
    ? { text: `${dir.text}/…`, dynamic: true, glob: false }
    : { ...name, text: `${dir.text.replace(/\/+$/, '')}/${name.text}` };

/** Facts of a tar call. Never throws. */
export function tarFacts(args: readonly ShellWord[]): ProgramFacts {
  const out = emptyProgramFacts();
  out.problem = 'tar writes files';
  let mode: string | null = null;
  let absolute = false;
  let toStdout = false;
  const archives: ShellWord[] = [];
  // Each -C moves tar for the members after it, from where the one before left it (`-C a -C b` is a/b).
  const dirs: ShellWord[] = [];
  let here: ShellWord | null = null;
  const operands: Array<{ word: ShellWord; dir: ShellWord | null }> = [];
  const operand = (word: ShellWord) => operands.push({ word, dir: here });
  let unknownMode = false;
  const value = (kind: string, w: ShellWord | undefined, option: string) => {
    if (!w) return;
    if (kind === 'archive') archives.push(w);
    else if (kind === 'dir') {
      here = !here || w.dynamic || w.text.startsWith('/') ? w : within(here, w);
      dirs.push(here);
    } else if (kind === 'read') {
      out.paths.push(use(w, 'read', true));
      // -T LIST: the members it names are read (create) or written (extract).
      if (option === '-T' || option === '--files-from') {
        out.paths.push(use({ text: '(a file tar -T names)', dynamic: true, glob: false }, 'unknown', false));
      }
    } else if (kind === 'write') out.paths.push(use(w, 'write', true));
    else if (kind === 'both') out.paths.push(use(w, 'read', true), use(w, 'write', true));
    else if (kind === 'shell') {
      if (w.dynamic) out.opaque = true;
      else out.scripts.push(w.text);
      out.problem = `tar ${option} runs a command`;
    } else if (kind === 'exec') {
      out.opaque = true;
      out.problem = `tar ${option} runs a program`;
    }
  };
  // Old style: a first word without a dash is a cluster of letters whose values follow in order.
  let i = 0;
  if (args[0] && !args[0].dynamic && !args[0].text.startsWith('-')) {
    const pending: string[] = [];
    for (const letter of args[0].text) {
      if (MODES[letter]) mode = MODES[letter];
      else if (letter === 'P') absolute = true;
      else if (letter === 'O') toStdout = true;
      if (SHORT_VALUES[letter]) pending.push(letter);
    }
    i = 1;
    for (const letter of pending) value(SHORT_VALUES[letter], args[i++], `-${letter}`);
  }
  let options = true;
  for (; i < args.length; i++) {
    const w = args[i];
    const t = w.text;
    if (w.dynamic) {
      // A run-time word may be any option (-x, -C DIR, --to-command=...).
      unknownMode = true;
      operand(w);
      continue;
    }
    if (!options || !t.startsWith('-') || t === '-') {
      operand(w);
      continue;
    }
    if (t === '--') {
      options = false;
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = longName(eq < 0 ? t : t.slice(0, eq));
      if (MODES[name]) mode = MODES[name];
      else if (name === '--absolute-names') absolute = true;
      else if (name === '--to-stdout') toStdout = true;
      const kind = LONG_VALUES[name];
      if (name === '--checkpoint-action') {
        const v = eq >= 0 ? { ...w, text: t.slice(eq + 1) } : args[++i];
        // `exec=COMMAND` runs COMMAND with sh -c at each checkpoint.
        if (v && (v.dynamic || /^exec=/.test(v.text)))
          value('shell', { ...v, text: v.text.replace(/^exec=/, '') }, name);
      } else if (kind) value(kind, eq >= 0 ? { ...w, text: t.slice(eq + 1) } : args[++i], name);
      else if (eq >= 0) out.paths.push(use({ ...w, text: t.slice(eq + 1) }, 'unknown', false));
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const letter = t[j];
      if (MODES[letter]) mode = MODES[letter];
      else if (letter === 'P') absolute = true;
      else if (letter === 'O') toStdout = true;
      const kind = SHORT_VALUES[letter];
      if (!kind) continue;
      value(kind, j < t.length - 1 ? { ...w, text: t.slice(j + 1) } : args[++i], `-${letter}`);
      break;
    }
  }
  const archiveIsStdio = (w: ShellWord) => !w.dynamic && w.text === '-';
  const files = archives.filter((w) => !archiveIsStdio(w));
  const member = (m: { word: ShellWord; dir: ShellWord | null }): ShellWord =>
    m.dir === null || (!m.word.dynamic && m.word.text.startsWith('/')) ? m.word : within(m.dir, m.word);
  if (mode === 'extract' || mode === null || unknownMode) {
    if (!toStdout || unknownMode) {
      // What is written is whatever the archive holds: below the directories (sure to be written into),
      // anywhere with -P (absolute member names).
      for (const dir of dirs.length > 0 ? dirs : [DOT]) out.paths.push(use(dir, 'write', true, true));
      if (absolute || unknownMode)
        out.paths.push(use({ text: '(tar member)', dynamic: true, glob: false }, 'write', false));
      for (const m of operands) out.paths.push(use(member({ ...m, dir: m.dir ?? DOT }), 'write', true, true));
      out.destructive = true;
    }
    for (const a of files) out.paths.push(use(a, 'read', true));
  }
  if (mode === 'create' || mode === 'append' || mode === 'diff' || mode === null || unknownMode) {
    // Members are read whole, relative to the directory in effect where they are named.
    for (const m of operands) out.paths.push(use(member(m), 'read', true, true));
    if (mode !== 'diff') for (const a of files) out.paths.push(use(a, 'read', true), use(a, 'write', true));
    else for (const a of files) out.paths.push(use(a, 'read', true));
  }
  if (mode === 'list') for (const a of files) out.paths.push(use(a, 'read', true));
  if (mode === 'delete') for (const a of files) out.paths.push(use(a, 'read', true), use(a, 'write', true));
  // No -f: the archive is standard input or output (or $TAPE, a device).
  return out;
}
