/**
 * A TypeScript language service over an in-memory copy of the workspace's source files: diagnostics,
 * definitions, references, hover text and a file's symbols, as text for the model. It runs in the LSP
 * worker (and in tests in Node), given the `ts` module and the compiler's lib files; it never imports
 * either itself, so no build can pull TypeScript into the page by way of this file.
 */
import type {
  DiagnosticLike,
  LanguageServiceHostLike,
  LanguageServiceLike,
  NavigationTreeLike,
  TsApi,
} from './ts-api.ts';

/** Where the compiler's lib files are served from (a path no workspace file can take). */
export const LIB_DIR = '/__ts_lib__';
/** Most diagnostics listed for one file. */
export const MAX_DIAGNOSTICS = 50;
/** Most locations listed for references. */
export const MAX_LOCATIONS = 100;

export const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface SourceFileText {
  path: string;
  text: string;
}

export type LspOperation = 'diagnostics' | 'goToDefinition' | 'findReferences' | 'hover' | 'documentSymbol';

export interface LspRequest {
  operation: LspOperation;
  /** Absolute path in the workspace. */
  filePath: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  character: number;
}

const DEFAULT_OPTIONS = {
  target: 'es2022',
  module: 'esnext',
  moduleResolution: 'bundler',
  jsx: 'react-jsx',
  lib: ['es2023', 'dom', 'dom.iterable'],
  allowJs: true,
  strict: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  esModuleInterop: true,
  resolveJsonModule: true,
};

/** 0-based offsets of each line start. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionOf(text: string, line: number, character: number): number {
  const starts = lineStarts(text);
  const l = Math.min(Math.max(1, line), starts.length) - 1;
  const end = l + 1 < starts.length ? starts[l + 1] - 1 : text.length;
  return Math.min(starts[l] + Math.max(1, character) - 1, end);
}

function lineColumn(text: string, pos: number): { line: number; character: number } {
  const starts = lineStarts(text);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, character: pos - starts[lo] + 1 };
}

export interface WorkspaceService {
  /** Replaces the files known (paths absolute). */
  setFiles(files: readonly SourceFileText[]): void;
  /** Changes or adds one file. */
  updateFile(file: SourceFileText): void;
  run(request: LspRequest): string;
}

/**
 * Creates the service. `libs` maps lib file names (`lib.es2023.d.ts`) to their text. `root` is the
 * workspace root (tsconfig.json there sets the compiler options). Never throws from `run` for a
 * request the model got wrong: the answer says what is wrong.
 */
export function createWorkspaceService(
  ts: TsApi,
  libs: ReadonlyMap<string, string>,
  root: string,
): WorkspaceService {
  const files = new Map<string, { text: string; version: number }>();
  let options: Record<string, unknown> = {};
  let configText: string | undefined;
  const readAny = (path: string): string | undefined =>
    path.startsWith(`${LIB_DIR}/`) ? libs.get(path.slice(LIB_DIR.length + 1)) : files.get(path)?.text;

  const compilerOptions = (): Record<string, unknown> => {
    const tsconfig = files.get(`${root}/tsconfig.json`)?.text;
    if (tsconfig === configText && Object.keys(options).length) return options;
    configText = tsconfig;
    let raw: Record<string, unknown> = {};
    if (tsconfig) {
      const parsed = ts.parseConfigFileTextToJson(`${root}/tsconfig.json`, tsconfig);
      const co = (parsed.config as { compilerOptions?: Record<string, unknown> } | undefined)
        ?.compilerOptions;
      if (co && typeof co === 'object') raw = co;
    }
    const merged = { ...DEFAULT_OPTIONS, ...raw, noEmit: true, skipLibCheck: true };
    options = ts.convertCompilerOptionsFromJson(merged, root).options;
    return options;
  };

  const host: LanguageServiceHostLike = {
    getScriptFileNames: () =>
      [...files.keys()].filter((p) => SOURCE_FILE.test(p) && !p.includes('/node_modules/')),
    getScriptVersion: (f) => String(files.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const text = readAny(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: compilerOptions,
    getDefaultLibFileName: (o) => `${LIB_DIR}/${ts.getDefaultLibFileName(o)}`,
    fileExists: (p) => readAny(p) !== undefined,
    readFile: readAny,
    directoryExists: (d) => {
      if (d === LIB_DIR) return true;
      const prefix = d.endsWith('/') ? d : `${d}/`;
      for (const p of files.keys()) if (p.startsWith(prefix)) return true;
      return false;
    },
    getDirectories: (d) => {
      const prefix = d.endsWith('/') ? d : `${d}/`;
      const out = new Set<string>();
      for (const p of files.keys()) {
        if (!p.startsWith(prefix)) continue;
        const rest = p.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash > 0) out.add(rest.slice(0, slash));
      }
      return [...out];
    },
    useCaseSensitiveFileNames: () => true,
  };
  const service: LanguageServiceLike = ts.createLanguageService(host, ts.createDocumentRegistry());

  const shown = (path: string) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);
  const location = (fileName: string, start: number) => {
    const text = readAny(fileName) ?? '';
    const { line, character } = lineColumn(text, start);
    const lineText = text
      .slice(
        lineStarts(text)[line - 1],
        text.indexOf('\n', start) < 0 ? undefined : text.indexOf('\n', start),
      )
      .trim();
    return `${fileName.startsWith(LIB_DIR) ? `(TypeScript lib) ${fileName.slice(LIB_DIR.length + 1)}` : shown(fileName)}:${line}:${character}${lineText ? `  ${lineText.slice(0, 160)}` : ''}`;
  };
  const formatDiagnostic = (d: DiagnosticLike): string => {
    const kind =
      d.category === ts.DiagnosticCategory.Error
        ? 'error'
        : d.category === ts.DiagnosticCategory.Warning
          ? 'warning'
          : 'info';
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `${kind} TS${d.code}: ${message}`;
    const text = readAny(d.file.fileName) ?? '';
    const { line, character } = lineColumn(text, d.start);
    return `${shown(d.file.fileName)}:${line}:${character} - ${kind} TS${d.code}: ${message}`;
  };

  return {
    setFiles(list) {
      const next = new Map<string, { text: string; version: number }>();
      for (const f of list) {
        const old = files.get(f.path);
        next.set(f.path, {
          text: f.text,
          version: old && old.text === f.text ? old.version : (old?.version ?? 0) + 1,
        });
      }
      files.clear();
      for (const [k, v] of next) files.set(k, v);
    },
    updateFile(f) {
      const old = files.get(f.path);
      if (old?.text === f.text) return;
      files.set(f.path, { text: f.text, version: (old?.version ?? 0) + 1 });
    },
    run(req) {
      const path = req.filePath;
      const text = files.get(path)?.text;
      if (text === undefined)
        return `No TypeScript or JavaScript file at ${path} (the language service reads .ts, .tsx, .js and .jsx files of the workspace).`;
      if (!SOURCE_FILE.test(path)) return `${path} is not a TypeScript or JavaScript file.`;
      const pos = positionOf(text, req.line, req.character);
      switch (req.operation) {
        case 'diagnostics': {
          const all = [...service.getSyntacticDiagnostics(path), ...service.getSemanticDiagnostics(path)];
          if (all.length === 0) return `No diagnostics in ${shown(path)}.`;
          const lines = all.slice(0, MAX_DIAGNOSTICS).map(formatDiagnostic);
          const more = all.length > MAX_DIAGNOSTICS ? `\n… and ${all.length - MAX_DIAGNOSTICS} more` : '';
          return `${all.length} diagnostic${all.length === 1 ? '' : 's'} in ${shown(path)}:\n${lines.join('\n')}${more}`;
        }
        case 'goToDefinition': {
          const defs = service.getDefinitionAtPosition(path, pos) ?? [];
          if (defs.length === 0) return `No definition found at ${shown(path)}:${req.line}:${req.character}.`;
          return `Definition${defs.length > 1 ? 's' : ''}:\n${defs.map((d) => location(d.fileName, d.textSpan.start)).join('\n')}`;
        }
        case 'findReferences': {
          const refs = service.getReferencesAtPosition(path, pos) ?? [];
          if (refs.length === 0) return `No references found at ${shown(path)}:${req.line}:${req.character}.`;
          const lines = refs.slice(0, MAX_LOCATIONS).map((r) => location(r.fileName, r.textSpan.start));
          const more = refs.length > MAX_LOCATIONS ? `\n… and ${refs.length - MAX_LOCATIONS} more` : '';
          return `${refs.length} reference${refs.length === 1 ? '' : 's'}:\n${lines.join('\n')}${more}`;
        }
        case 'hover': {
          const info = service.getQuickInfoAtPosition(path, pos);
          const sig = info?.displayParts?.map((p) => p.text).join('') ?? '';
          if (!sig) return `Nothing to show at ${shown(path)}:${req.line}:${req.character}.`;
          const doc = info?.documentation?.map((p) => p.text).join('') ?? '';
          return doc ? `${sig}\n\n${doc}` : sig;
        }
        case 'documentSymbol': {
          const out: string[] = [];
          const walk = (node: NavigationTreeLike, depth: number) => {
            for (const child of node.childItems ?? []) {
              const { line } = lineColumn(text, child.spans[0]?.start ?? 0);
              out.push(`${'  '.repeat(depth)}${child.kind} ${child.text} (line ${line})`);
              if (out.length < 500) walk(child, depth + 1);
            }
          };
          walk(service.getNavigationTree(path), 0);
          return out.length ? out.join('\n') : `No symbols in ${shown(path)}.`;
        }
      }
    },
  };
}
