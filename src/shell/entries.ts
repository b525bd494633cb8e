/**
 * The walker's scope and entries: the static `cd` trail a command runs after (and how `cd`, `pushd`
 * and `popd` move it), path references taken in a scope, the entries of commands with no program of
 * their own (`[[ ]]`, `(( ))`, a function definition, a compound command's redirections), and entries
 * whose forms are computed on first read.
 */
import type { PathUse } from './facts.ts';
import type { RedirectIo } from './redirects.ts';
import type { ShellCommand, ShellForm, ShellPathRef, ShellWord } from './types.ts';

export interface Scope {
  /** Static `cd` targets that may have run (null: a cd to a place only known at run time). */
  cdTrail: string[] | null;
  /** `set -P` ran: every `cd` takes `..` physically. */
  physical?: boolean;
}

export const copyScope = (s: Scope): Scope => ({
  cdTrail: s.cdTrail ? [...s.cdTrail] : null,
  ...(s.physical ? { physical: true } : {}),
});

/** Where a command `env -C DIR` starts runs from: DIR, from wherever the shell is (which stays). */
export const chdirScope = (s: Scope, dir: ShellWord | undefined): Scope =>
  dir ? { ...copyScope(s), cdTrail: dir.dynamic || !s.cdTrail ? null : [...s.cdTrail, dir.text] } : s;

/** Applies `cd` / `pushd` / `popd` to the scope (`cd` alone goes HOME: `~`). */
export function moveScope(scope: Scope, name: string, words: readonly ShellWord[]): void {
  const args = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.text));
  // `cd -P l/..`: `..` taken physically, from where a link leads (the trail reads it as text).
  const physical = scope.physical === true || words.slice(1).some((w) => /^-[LPe@]*P[LPe@]*$/.test(w.text));
  if (
    name === 'popd' ||
    (physical && args.some((w) => w.dynamic || w.text.split('/').includes('..'))) ||
    args.length > 1 ||
    args[0]?.dynamic ||
    // A glob leads where it expands (`cd .gi?` is .git), not to a directory of that name.
    args[0]?.glob ||
    args[0]?.text === '-' ||
    /^[+-]\d+$/.test(args[0]?.text ?? '')
  ) {
    scope.cdTrail = null;
    return;
  }
  if (!scope.cdTrail) return;
  const target = args[0];
  scope.cdTrail.push(
    target === undefined
      ? '~'
      : target.tilde || !target.text.startsWith('~')
        ? target.text
        : `./${target.text}`,
  );
}

/** The form of code the analysis cannot see: every deny or ask rule may match it. */
export const OPAQUE_FORM: ShellForm = { words: [{ text: '…', dynamic: true, glob: false }], sure: false };

/** Words as the user wrote them (quotes kept), joined by spaces: a command's text in messages. */
export const shownText = (words: readonly ShellWord[]): string =>
  words.map((w) => w.written ?? w.text).join(' ');

/** A path the command uses, with the `cd` trail of the scope it runs in. */
export function pathRef(p: PathUse, scope: Scope): ShellPathRef {
  return {
    text: p.word.text,
    dynamic: p.word.dynamic,
    glob: p.word.glob,
    tilde: p.word.tilde === true,
    access: p.access,
    sure: p.sure,
    recursive: p.recursive,
    ...(p.ifDirectory && !p.recursive ? { ifDirectory: true } : {}),
    redirect: p.redirect === true,
    ...(p.device ? { device: true } : {}),
    cdTrail: scope.cdTrail ? [...scope.cdTrail] : null,
  };
}

/** The entry of a command with no program of its own (`[[ ]]`, `(( ))`, a function definition). */
export function pseudoEntry(
  source: string,
  problem: string | null,
  changesState: boolean,
  opaque = problem !== null,
): ShellCommand {
  return {
    source,
    words: [],
    allowTexts: [],
    // Code it evaluates is unknown: every deny or ask rule may match it.
    forms: opaque ? [OPAQUE_FORM] : [],
    readOnly: problem === null,
    ...(problem ? { reason: problem } : {}),
    changesState,
    opaque,
    container: false,
    startsShell: false,
    usesPath: false,
    fileOnly: false,
    destructive: false,
    paths: [],
  };
}

/** The entry of a compound command's file redirections (`{ ...; } > out`). */
export function redirectionEntry(io: RedirectIo, paths: ShellPathRef[]): ShellCommand {
  return {
    source: 'redirection',
    words: [],
    allowTexts: [],
    forms: [],
    readOnly: io.network === null,
    ...(io.network ? { reason: io.network } : {}),
    changesState: false,
    opaque: false,
    container: false,
    startsShell: false,
    usesPath: false,
    fileOnly: false,
    destructive: io.overwrites,
    paths,
  };
}

/** An entry as the walker records it: its forms given, or a function computing them. */
export type EntryDraft = Omit<ShellCommand, 'forms'> & {
  forms: readonly ShellForm[] | (() => ShellForm[]);
};

/**
 * The entry of a draft. Its forms (what deny and ask rules match) are many for a long command and only
 * needed when such rules exist: a function is called on first read, once. Its writes to /dev/null go
 * from its paths to its devices (ShellCommand.devices).
 */
export function withLazyForms(draft: EntryDraft): ShellCommand {
  const devices = draft.paths.filter((p) => p.device);
  const command =
    devices.length > 0 ? { ...draft, paths: draft.paths.filter((p) => !p.device), devices } : draft;
  const { forms, ...rest } = command;
  if (typeof forms !== 'function') return { ...rest, forms };
  let cached: ShellForm[] | undefined;
  const entry = rest as ShellCommand;
  Object.defineProperty(entry, 'forms', { enumerable: true, get: () => (cached ??= forms()) });
  return entry;
}
