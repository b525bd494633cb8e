/**
 * Redirections of a command: the files it reads (`<`) and writes (`>`, `>>`, `&>`, `<>`), whether it
 * overwrites one, what a here-doc or here-string feeds it, and `{fd}>file` variables.
 */
import type { SimpleCommandNode } from 'just-bash';
import type { PathUse } from './facts.ts';
import type { PathAccess } from './types.ts';
import { wordOf } from './words.ts';

type RedirectionNode = SimpleCommandNode['redirections'][number];

/** Redirection targets that are not files. */
const NOT_FILES = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;

export interface RedirectIo {
  paths: PathUse[];
  /** Whether a redirection overwrites a file (`>`, `>|`). */
  overwrites: boolean;
  /** What a here-doc or here-string feeds to standard input, when it is fully known. */
  stdin: string | null;
  /** `{fd}>file` sets the variable fd. */
  assigns: string[];
  /** Why a redirection may open a network connection (bash's `/dev/tcp/HOST/PORT`), or null. */
  network: string | null;
}

/**
 * Whether a redirection target may be bash's `/dev/tcp/HOST/PORT` or `/dev/udp/...`, which connect to
 * the network: as written, or when the part before its run-time text could still lead there.
 */
function mayConnect(text: string, dynamic: boolean): boolean {
  const fixed = (dynamic ? text.split(/[$`]|\/dev\/fd\/…|\{…\}/)[0] : text).replace(/\/+/g, '/');
  if (/^\/dev\/(tcp|udp)\//.test(fixed)) return true;
  return dynamic && ['/dev/tcp/', '/dev/udp/'].some((p) => p.startsWith(fixed));
}

export function redirectIo(list: readonly RedirectionNode[]): RedirectIo {
  const io: RedirectIo = { paths: [], overwrites: false, stdin: null, assigns: [], network: null };
  for (const r of list) {
    if (r.fdVariable) io.assigns.push(r.fdVariable);
    const target = r.target;
    if (target.type === 'HereDoc') {
      const w = wordOf(target.content);
      io.stdin = w.dynamic ? null : w.text;
      continue;
    }
    const w = wordOf(target);
    if (r.operator !== '<<<' && mayConnect(w.text, w.dynamic)) {
      io.network ??= `the redirection ${w.written ?? w.text} may open a network connection`;
    }
    const isFile = w.dynamic || !NOT_FILES.test(w.text.replace(/\/+/g, '/'));
    const file = (access: PathAccess) => {
      if (isFile) io.paths.push({ word: w, access, sure: true, recursive: false, redirect: true });
    };
    switch (r.operator) {
      case '<<<':
        io.stdin = w.dynamic ? null : w.text;
        break;
      case '<':
        file('read');
        break;
      case '<&':
        if (w.dynamic || !/^(\d+-?|-)$/.test(w.text)) file('read');
        break;
      case '>&':
        if (!w.dynamic && /^(\d+-?|-)$/.test(w.text)) break;
        file('write');
        if (isFile) io.overwrites = true;
        break;
      case '>':
      case '>|':
      case '&>':
        file('write');
        if (isFile) io.overwrites = true;
        break;
      case '<>':
        // Opened for reading and writing: what the command reads from it is the file's content.
        file('read');
        file('write');
        break;
      default:
        // >>, &>>.
        file('write');
    }
  }
  return io;
}
