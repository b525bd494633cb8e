/**
 * Redirections of a command: the files it reads (`<`) and writes (`>`, `>>`, `&>`, `<>`), whether it
 * overwrites one, what a here-doc or here-string feeds it, and `{fd}>file` variables.
 */
import type { SimpleCommandNode } from 'just-bash';
import type { PathUse } from './facts.ts';
import type { PathAccess } from './types.ts';
import { wordOf } from './words.ts';

type RedirectionNode = SimpleCommandNode['redirections'][number];

/**
 * Output targets just-bash opens no file for, by their exact text: /dev/stdout and /dev/stderr duplicate
 * the standard streams, /dev/full fails. `&>` and `&>>` write a /dev/stdout or /dev/stderr file. Every
 * other target, and every input, is a file of its in-memory file system (/dev/stdin, /dev/tty, /dev/fd/N
 * and /dev/null too), which an earlier call may have replaced with a link.
 */
const STREAMS = /^\/dev\/(stdout|stderr|full)$/;
const BOTH_STREAMS = /^\/dev\/full$/;

/**
 * Files just-bash makes at start that a write changes nothing that matters in while they are its plain
 * files: a write to one is marked (PathUse.device) and left to the engine, which looks whether it is a
 * link (ShellCommand.devices).
 */
const DEVICES = /^\/dev\/(null|stdout|stderr)$/;

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
    const both = r.operator === '&>' || r.operator === '&>>';
    const stream = !w.dynamic && (both ? BOTH_STREAMS : STREAMS).test(w.text);
    const device = !w.dynamic && DEVICES.test(w.text.replace(/\/+/g, '/'));
    const path = (access: PathAccess): PathUse => ({
      word: w,
      access,
      sure: true,
      recursive: false,
      redirect: true,
      ...(device && access === 'write' ? { device: true } : {}),
    });
    const read = () => io.paths.push(path('read'));
    /** Writes the target; true when that is a file that may change (not a stream, not a device). */
    const write = (): boolean => {
      if (stream) return false;
      io.paths.push(path('write'));
      return !device;
    };
    switch (r.operator) {
      case '<<<':
        io.stdin = w.dynamic ? null : w.text;
        break;
      case '<':
        read();
        break;
      case '<&':
        if (w.dynamic || !/^(\d+-?|-)$/.test(w.text)) read();
        break;
      case '>&':
        if (!w.dynamic && /^(\d+-?|-)$/.test(w.text)) break;
        if (write()) io.overwrites = true;
        break;
      case '>':
      case '>|':
      case '&>':
        if (write()) io.overwrites = true;
        break;
      case '<>':
        // Opened for reading and writing, as a file whatever its name: what the command reads from it is
        // the file's content.
        read();
        io.paths.push(path('write'));
        break;
      default:
        // >>, &>>.
        write();
    }
  }
  return io;
}
