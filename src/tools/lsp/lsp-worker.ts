/**
 * The LSP worker: the TypeScript language service (the `typescript-5` package and its lib files, all in
 * this worker's chunk, loaded on the first LSP use) over the copy of the workspace files the page sends.
 * Messages: `{ id, type: 'sync', root, files, removed }` and `{ id, type: 'run', request }`; answers
 * `{ id, ok, result | error }`. Never touches the page's storage or network.
 */
import ts from 'typescript-5';
import { messageOf } from '../../core/errors.ts';
import {
  createWorkspaceService,
  type LspRequest,
  type SourceFileText,
  type WorkspaceService,
} from './language-service.ts';
import type { TsApi } from './ts-api.ts';

type Incoming =
  | { id: number; type: 'sync'; root: string; files: SourceFileText[]; removed: string[] }
  | { id: number; type: 'run'; request: LspRequest };

const libFiles = import.meta.glob('/node_modules/typescript-5/lib/lib.*.d.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const libs = new Map(
  Object.entries(libFiles).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text]),
);

let service: WorkspaceService | undefined;
let root = '';
const known = new Map<string, string>();

self.onmessage = (e: MessageEvent<Incoming>) => {
  const msg = e.data;
  try {
    if (msg.type === 'sync') {
      if (!service || msg.root !== root) {
        root = msg.root;
        service = createWorkspaceService(ts as unknown as TsApi, libs, root);
        known.clear();
      }
      for (const f of msg.files) known.set(f.path, f.text);
      for (const p of msg.removed) known.delete(p);
      service.setFiles([...known].map(([path, text]) => ({ path, text })));
      postMessage({ id: msg.id, ok: true, result: known.size });
      return;
    }
    if (!service) throw new Error('The language service has no files yet.');
    postMessage({ id: msg.id, ok: true, result: service.run(msg.request) });
  } catch (err) {
    postMessage({ id: msg.id, ok: false, error: messageOf(err) });
  }
};
