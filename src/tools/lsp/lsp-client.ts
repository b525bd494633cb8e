/**
 * The page's side of the LSP: which workspace files the language service sees (sources, tsconfig.json
 * and package.json files, type declarations under node_modules), sent to it as they change, and
 * requests with a time limit. The worker starts on the first request; a test connects in-process to
 * the same language service instead.
 */
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { type LspRequest, SOURCE_FILE, type SourceFileText } from './language-service.ts';

/** The gate's marker, in the worker's name: a build with the gate off has no trace of it (bundle test). */
export const LSP_GATE_MARKER = 'tabcode LSP gate';

/** Most files the language service is given, and the most bytes of them. */
export const LSP_MAX_FILES = 4000;
export const LSP_MAX_BYTES = 30_000_000;

/** Files the language service reads: sources, configs, declarations. */
const WANTED = /(\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)|\/tsconfig\.json|\/package\.json)$/;

export interface FileDelta {
  root: string;
  files: SourceFileText[];
  removed: string[];
}

/** One language service (a worker, or in-process in tests). */
export interface LspConnection {
  sync(delta: FileDelta): Promise<void>;
  run(request: LspRequest): Promise<string>;
  dispose(): void;
}

/** A connection to the LSP worker, started now. */
export function createWorkerConnection(): LspConnection {
  const worker = new Worker(new URL('./lsp-worker.ts', import.meta.url), {
    type: 'module',
    name: `lsp-worker (${LSP_GATE_MARKER})`,
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  worker.onmessage = (e: MessageEvent<{ id: number; ok: boolean; result?: unknown; error?: string }>) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.ok) p.resolve(e.data.result);
    else p.reject(new Error(e.data.error ?? 'the language service failed'));
  };
  worker.onerror = (e) => {
    for (const p of pending.values()) p.reject(new Error(`the language service worker failed: ${e.message}`));
    pending.clear();
  };
  const call = (msg: Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id });
    });
  return {
    sync: async (delta) => void (await call({ type: 'sync', ...delta })),
    run: async (request) => String(await call({ type: 'run', request })),
    dispose: () => worker.terminate(),
  };
}

/** Tracks what the language service was sent, per sandbox, and sends what changed. */
export class WorkspaceMirror {
  private sent = new Map<string, string>();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly connection: LspConnection,
  ) {}

  /** Sends the files that changed since the last call. Never reads more than the caps. */
  async refresh(signal?: AbortSignal): Promise<void> {
    const root = this.sandbox.root;
    const paths = (await this.sandbox.listFiles({ root, signal }))
      .filter(
        (p) => WANTED.test(p) && (!p.includes('/node_modules/') || /\.d\.[cm]?ts$|\/package\.json$/.test(p)),
      )
      .slice(0, LSP_MAX_FILES);
    const files: SourceFileText[] = [];
    const seen = new Set<string>();
    let bytes = 0;
    for (const path of paths) {
      signal?.throwIfAborted();
      let text: string;
      try {
        text = await this.sandbox.readFile(path);
      } catch {
        continue;
      }
      bytes += text.length;
      if (bytes > LSP_MAX_BYTES) break;
      seen.add(path);
      if (this.sent.get(path) !== text) files.push({ path, text });
    }
    const removed = [...this.sent.keys()].filter((p) => !seen.has(p));
    if (files.length === 0 && removed.length === 0 && this.sent.size > 0) return;
    await this.connection.sync({ root, files, removed });
    for (const f of files) this.sent.set(f.path, f.text);
    for (const p of removed) this.sent.delete(p);
  }
}

/** True for a file the language service checks. */
export function isSourceFile(path: string): boolean {
  return SOURCE_FILE.test(path) && !path.includes('/node_modules/');
}
