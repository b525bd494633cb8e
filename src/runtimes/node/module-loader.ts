/**
 * ES module loading for the engine: QuickJS asks `normalize` which module an `import` means and `load`
 * for its source. Files are named by `file://` URL (so `import.meta.url` and stack frames read as in
 * Node), builtins by `node:<name>`.
 *
 * ESM files load as they are (types stripped for TypeScript), with `import.meta` filled in on a line of
 * their own before the file's first line (stack frames are moved back one line; see the bootstrap).
 * CommonJS files, JSON and builtins load as small generated modules whose default export is the
 * CommonJS `module.exports` and whose named exports are its keys (the CommonJS module runs when it is
 * first imported, through the guest's own `require`, so it is the same instance `require` returns).
 * A specifier that does not resolve loads as a module that throws Node's error (code and message).
 */
import type { QuickJS } from 'quickjs-wasi';
import type { StateHolder } from './host-binding.ts';
import { dirnameOf, fileUrlToPath, pathToFileUrl, type Resolver } from './resolve.ts';
import { loadSourceText } from './source-text.ts';

/** The guest object (installed by the bootstrap) through which generated modules reach `require`. */
const INTERNAL = "globalThis[Symbol.for('tabcode.internal')]";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally ' +
    'for function if implements import in instanceof interface let new null package private protected public return ' +
    'static super switch this throw true try typeof var void while with yield arguments eval'
  ).split(' '),
);

export interface ModuleLoader {
  normalize(baseName: string, specifier: string): string;
  load(name: string): string;
}

export function moduleLoader(getVm: () => QuickJS, holder: StateHolder, resolver: Resolver): ModuleLoader {
  const failures = new Map<string, { code: string; message: string }>();
  return {
    normalize(baseName, requested) {
      try {
        const parent = parentPath(baseName, holder.state.cwd);
        const resolved = resolver.resolve(requested, parent, 'import');
        return resolved.format === 'builtin' ? resolved.path : pathToFileUrl(resolved.path);
      } catch (err) {
        const e = err as { code?: string; message?: string };
        const name = `tabcode:unresolved:${failures.size}:${requested}`;
        failures.set(name, { code: e.code ?? 'ERR_MODULE_NOT_FOUND', message: e.message ?? String(err) });
        return name;
      }
    },
    load(name) {
      const failure = failures.get(name);
      if (failure) return throwingModule(failure.message, failure.code);
      if (name.startsWith('node:')) {
        return generated(getVm(), `${INTERNAL}.requireBuiltin(${JSON.stringify(name.slice(5))})`);
      }
      if (!name.startsWith('file://') && !name.startsWith('/')) {
        return throwingModule(`Cannot find module '${name}'`, 'ERR_MODULE_NOT_FOUND');
      }
      const state = holder.state;
      const path = name.startsWith('file://') ? fileUrlToPath(name) : name;
      let info: ReturnType<Resolver['formatOf']>;
      let source: string;
      try {
        info = resolver.formatOf(path);
        if (info.format === 'commonjs') {
          return generated(getVm(), `${INTERNAL}.requireFile(${JSON.stringify(path)})`);
        }
        source = loadSourceText(state.fs, path, info.typescript === true);
      } catch (err) {
        const e = err as { code?: string; message?: string };
        return throwingModule(e.message ?? String(err), e.code ?? 'ERR_MODULE_NOT_FOUND');
      }
      if (info.format === 'json') {
        try {
          JSON.parse(source);
        } catch (err) {
          return throwingModule(`${path}: ${(err as Error).message}`, 'ERR_INVALID_JSON');
        }
        return `export default ${source};`;
      }
      // import.meta goes on a line of its own; stack frames are moved back one line (binding.lineOffset).
      state.prefixedModules.add(name);
      return `${importMeta(name, path)}\n${source}`;
    },
  };
}

/** `import.meta` as Node fills it, in one line. */
function importMeta(url: string, path: string): string {
  return (
    `import.meta.url=${JSON.stringify(url)};import.meta.filename=${JSON.stringify(path)};` +
    `import.meta.dirname=${JSON.stringify(dirnameOf(path))};` +
    `import.meta.resolve=(s)=>${INTERNAL}.resolveUrl(s,${JSON.stringify(url)});`
  );
}

/** A module whose evaluation throws `message` with `code` (an import that cannot be resolved or read). */
function throwingModule(message: string, code: string): string {
  return `throw Object.assign(new Error(${JSON.stringify(message)}), { code: ${JSON.stringify(code)} });`;
}

/**
 * Source of a module re-exporting the value of `expression` (evaluated now, in the guest): default is
 * the value, named exports its own enumerable keys that are valid names. Evaluating it may throw (a
 * CommonJS file that throws while loading): the import then fails with that error.
 */
function generated(vm: QuickJS, expression: string): string {
  const answer = JSON.parse(
    vm
      .evalCode(
        `(() => { try { const m = ${expression}; return JSON.stringify({ keys: m !== null && (typeof m === 'object' || typeof m === 'function') ? Object.keys(m) : [] }); } catch (e) { return JSON.stringify({ error: ${INTERNAL}.stashError(e) }); } })()`,
        'node:internal/modules/esm/translators',
      )
      .consume((h) => h.toString()),
  ) as { keys?: string[]; error?: number };
  if (answer.error !== undefined) return `throw ${INTERNAL}.takeError(${answer.error});`;
  const names = (answer.keys ?? []).filter((k) => IDENTIFIER.test(k) && !RESERVED.has(k));
  const lines = [`const __m = ${expression};`, 'export default __m;'];
  if (names.length) lines.push(`export const { ${names.join(', ')} } = __m;`);
  return lines.join('\n');
}

function parentPath(baseName: string, cwd: string): string {
  if (baseName.startsWith('file://')) return fileUrlToPath(baseName);
  if (baseName.startsWith('/')) return baseName;
  // Builtins and evaluated snippets import relative to the working directory.
  return `${cwd === '/' ? '' : cwd}/[eval]`;
}
