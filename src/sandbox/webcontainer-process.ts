/**
 * Small pieces of the WebContainer backend that talk to the VM directly: the tree `mount` takes, an
 * interactive `jsh` as an InteractiveShell, resolving a symlink with `node`, and the text of a preview
 * error for the model.
 */
import type { FileSystemTree, PreviewMessage, WebContainerProcess } from '@webcontainer/api';
import { type InteractiveShell, normalizePath } from './sandbox.ts';
import { Emitter, stripAnsi } from './shared.ts';
import type { WebContainerApi } from './webcontainer.ts';
import { pump, sleep } from './webcontainer-exec.ts';

/** Builds the FileSystemTree `mount` takes from relative paths. */
export function toFileSystemTree(files: Record<string, string | Uint8Array>): FileSystemTree {
  const tree: FileSystemTree = {};
  for (const [path, contents] of Object.entries(files)) {
    const parts = path.split('/').filter((p) => p && p !== '.');
    let dir = tree;
    for (const part of parts.slice(0, -1)) {
      const node = dir[part];
      if (node && 'directory' in node) dir = node.directory;
      else {
        const next: FileSystemTree = {};
        dir[part] = { directory: next };
        dir = next;
      }
    }
    const name = parts.at(-1);
    if (name) dir[name] = { file: { contents } };
  }
  return tree;
}

/** Commands jsh is known to offer when `ls /bin` cannot be read. */
export const JSH_FALLBACK_COMMANDS = [
  'cat',
  'cd',
  'cp',
  'echo',
  'export',
  'kill',
  'ls',
  'mkdir',
  'node',
  'npm',
  'npx',
  'ps',
  'pwd',
  'rm',
  'rmdir',
];

/** An interactive shell over a spawned `jsh`; output before the first listener is kept for it. */
export function interactiveShell(proc: WebContainerProcess): InteractiveShell {
  const output = new Emitter<string>();
  let backlog: string | undefined = '';
  const pumped = pump(proc, (chunk) => {
    if (backlog !== undefined) backlog += chunk;
    else output.emit(chunk);
  });
  const input = proc.input.getWriter();
  return {
    onOutput: (listener) => {
      const off = output.add(listener);
      if (backlog !== undefined) {
        const early = backlog;
        backlog = undefined;
        if (early) listener(early);
      }
      return off;
    },
    write: (data) => void input.write(data).catch(() => undefined),
    resize: (next) => proc.resize(next),
    exit: proc.exit,
    kill: () => {
      pumped.stop();
      proc.kill();
    },
  };
}

/** Where the link at `abs` leads (absolute, symlinks resolved), asked of `node`; '' when unknown. */
export async function resolveLink(
  wc: WebContainerApi,
  abs: string,
  terminal: { cols: number; rows: number },
): Promise<string> {
  const code =
    "const fs=require('fs').promises,path=require('path');const p=process.argv[1];" +
    'fs.realpath(p).catch(()=>fs.readlink(p).then((t)=>path.resolve(path.dirname(p),t)))' +
    ".catch(()=>'').then((r)=>process.stdout.write('@@'+r+'@@'))";
  let out = '';
  try {
    const proc = await wc.spawn('node', ['-e', code, abs], { terminal });
    const p = pump(proc, (chunk) => {
      out += chunk;
    });
    await Promise.race([proc.exit, sleep(10_000)]);
    await Promise.race([p.done, sleep(2_000)]);
  } catch {
    // No node: the link cannot be resolved (and is refused).
  }
  const m = /@@(.*?)@@/s.exec(stripAnsi(out));
  return m?.[1] ? normalizePath(m[1]) : '';
}

/** What the model is told about an error a preview page reported. */
export function previewErrorText(message: PreviewMessage): string {
  const what =
    'args' in message
      ? `console.error: ${message.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`
      : `${message.type === 'PREVIEW_UNHANDLED_REJECTION' ? 'Unhandled rejection' : 'Uncaught exception'}: ${message.message}`;
  const where = `${message.pathname}${message.search}${message.hash}`;
  return `The preview of port ${message.port} (${where}) reported an error. ${what}${message.stack ? `\n${message.stack}` : ''}`;
}
