/**
 * Helpers of the shell permission matcher (shell-analysis.ts): the forms of a command deny and ask
 * rules are matched against, and which commands go through whole directory trees.
 */
import { foldLookalikes } from '../../core/permissions/paths.ts';
import type { ShellWordInfo } from '../../core/permissions/types.ts';

/**
 * Programs that always go through whole directory trees given as arguments. `ln` too: a link to a
 * directory exposes everything below it under another name (deny rules then match "maybe": ask).
 */
const ALWAYS_RECURSIVE = new Set(['find', 'rg', 'ag', 'ack', 'tar', 'rsync', 'du', 'tree', 'scp', 'ln']);
/** Programs that do with -r / -R / --recursive (cp also with -a). */
const FLAG_RECURSIVE = new Set([
  'grep',
  'egrep',
  'fgrep',
  'cp',
  'rm',
  'chmod',
  'chown',
  'chgrp',
  'diff',
  'zip',
]);
const RECURSIVE_FLAG = /^(-[A-Za-z]*[rR]|--recursive|--dereference-recursive|--directories=recurse)/;

export function isRecursive(name: string, words: readonly ShellWordInfo[]): boolean {
  if (ALWAYS_RECURSIVE.has(name)) return true;
  if (!FLAG_RECURSIVE.has(name)) return false;
  return words.some((w) => RECURSIVE_FLAG.test(w.text) || (name === 'cp' && /^-[A-Za-z]*a/.test(w.text)));
}

const formKey = (ws: readonly ShellWordInfo[]): string =>
  ws.map((w) => (w.dynamic ? `\u0000${w.text}` : w.text)).join('\u0001');

/** A plausible program name: suffixes of a command starting at one are matched by deny rules too. */
const COMMAND_LIKE = /^[^\s=-][^\s=]*$/;

/**
 * The forms deny and ask rules must match: as written, unwrapped, each inner command, the program's
 * basename (`/bin/rm` → `rm`), look-alike characters folded, and for commands that are not read-only
 * every suffix that starts with a command-like word (catches wrappers this file does not know).
 */
export function denyForms(
  written: ShellWordInfo[],
  inner: ShellWordInfo[],
  extra: ShellWordInfo[][],
  readOnly: boolean,
  opaque: boolean,
): ShellWordInfo[][] {
  const base: ShellWordInfo[][] = [written, inner, ...extra];
  // `git -C . push`, `npm --prefix x test`: the program with its leading options left out.
  for (const ws of [inner, ...extra]) {
    const isOpt = (k: number) => k >= 1 && k < ws.length && ws[k].text.startsWith('-');
    for (let m = 1; m < ws.length && (isOpt(m) || isOpt(m - 1)); m++) base.push([ws[0], ...ws.slice(m + 1)]);
  }
  if (!readOnly) {
    for (const ws of [written, ...extra]) {
      for (let k = 1; k < ws.length; k++)
        if (!ws[k].dynamic && COMMAND_LIKE.test(ws[k].text)) base.push(ws.slice(k));
    }
  }
  const forms: ShellWordInfo[][] = [];
  const seen = new Set<string>();
  const add = (given: ShellWordInfo[]): void => {
    if (given.length === 0) return;
    // A glob expands to the names of files that exist when it runs (`git pu?h` after `touch push`).
    const ws = given.map((w) => (w.glob && !w.dynamic ? { ...w, dynamic: true } : w));
    const key = formKey(ws);
    if (seen.has(key)) return;
    seen.add(key);
    forms.push(ws);
  };
  for (const ws of base) {
    if (ws.length === 0) continue;
    add(ws);
    const [program, ...rest] = ws;
    const slash = program.text.lastIndexOf('/');
    const renamed =
      !program.dynamic && slash >= 0 && slash < program.text.length - 1
        ? [{ ...program, text: program.text.slice(slash + 1) }, ...rest]
        : ws;
    add(renamed);
    add(renamed.map((w) => ({ ...w, text: foldLookalikes(w.text) })));
  }
  if (opaque) add([{ text: '…', dynamic: true, glob: false }]);
  return forms;
}
