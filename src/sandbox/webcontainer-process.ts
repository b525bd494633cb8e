/**
 * Small pieces of the WebContainer backend that talk to the VM directly: the tree `mount` takes, an
 * interactive `jsh` as an InteractiveShell, the commands `ls /bin` lists, asking `node` where a symlink
 * leads or whether anything is at a path, and the text of a preview error for the model.
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

/** The commands `ls /bin` lists, with cd, export, node, npm and npx, sorted; [] when it lists none. */
export function binCommands(lsOutput: string): string[] {
  const found = lsOutput
    .split(/\s+/)
    .map((n) => n.replace(/[*@/]$/, ''))
    .filter((n) => /^[\w.+-]+$/.test(n));
  return found.length ? [...new Set([...found, 'cd', 'export', 'node', 'npm', 'npx'])].sort() : [];
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

type Terminal = { cols: number; rows: number };

/**
 * Runs `node -e code abs` and returns what `code` wrote between `@@` markers (the terminal adds escapes
 * and echoes around it), or null when node did not answer (none, or not within 10 s).
 */
async function askNode(
  wc: WebContainerApi,
  code: string,
  abs: string,
  terminal: Terminal,
): Promise<string | null> {
  let out = '';
  try {
    const proc = await wc.spawn('node', ['-e', code, abs], { terminal });
    const p = pump(proc, (chunk) => {
      out += chunk;
    });
    await Promise.race([proc.exit, sleep(10_000)]);
    await Promise.race([p.done, sleep(2_000)]);
  } catch {
    // No node: no answer.
  }
  return /@@(.*?)@@/s.exec(stripAnsi(out))?.[1] ?? null;
}

/** Where the link at `abs` leads (absolute, symlinks resolved), asked of `node`; '' when unknown. */
export async function resolveLink(wc: WebContainerApi, abs: string, terminal: Terminal): Promise<string> {
  const code =
    "const fs=require('fs').promises,path=require('path');const p=process.argv[1];" +
    'fs.realpath(p).catch(()=>fs.readlink(p).then((t)=>path.resolve(path.dirname(p),t)))' +
    ".catch(()=>'').then((r)=>process.stdout.write('@@'+r+'@@'))";
  const target = await askNode(wc, code, abs, terminal);
  return target ? normalizePath(target) : '';
}

/**
 * Whether anything (a file, a directory, a link, dangling or not) is at `abs`, asked of `node` (lstat):
 * for paths the workdir-scoped `wc.fs` cannot reach. null when node did not answer.
 */
export async function probePath(
  wc: WebContainerApi,
  abs: string,
  terminal: Terminal,
): Promise<boolean | null> {
  const code =
    "require('fs').promises.lstat(process.argv[1]).then(()=>'yes',()=>'no')" +
    ".then((r)=>process.stdout.write('@@'+r+'@@'))";
  const answer = await askNode(wc, code, abs, terminal);
  return answer === 'yes' ? true : answer === 'no' ? false : null;
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
