/**
 * ES module loading for the engine: QuickJS asks `normalize` which module an `import` means and `load`
 * for its source. Files are named by `file://` URL (so `import.meta.url` and stack frames read as in
 * Node), builtins by `node:<name>`.
 *
 * ESM files load as they are (types stripped for TypeScript) with `import.meta` filled in on their first
 * line. CommonJS files, JSON and builtins load as small generated modules whose default export is the
 * CommonJS `module.exports` and whose named exports are its keys (the CommonJS module runs when it is
 * first imported, through the guest's own `require`, so it is the same instance `require` returns).
 */
import type {
  JSModuleLoader,
  JSModuleNormalizer,
  QuickJSContext,
  QuickJSHandle,
} from 'quickjs-emscripten-core';
import type { RunState } from './engine.ts';
import { dirnameOf, fileUrlToPath, pathToFileUrl, ResolveError, type Resolver } from './resolve.ts';
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

export function moduleLoader(
  vm: QuickJSContext,
  state: RunState,
  resolver: Resolver,
): { load: JSModuleLoader; normalize: JSModuleNormalizer } {
  // quickjs-emscripten does not pass a normalizer's error on (the import then loads ''), so a failed
  // resolution becomes a name whose loading throws the resolver's error, code and message intact.
  const failures = new Map<string, unknown>();
  const normalize: JSModuleNormalizer = (baseName, requested) => {
    try {
      const parent = parentPath(baseName, state.cwd);
      const resolved = resolver.resolve(requested, parent, 'import');
      return resolved.format === 'builtin' ? resolved.path : pathToFileUrl(resolved.path);
    } catch (err) {
      const name = `tabcode:unresolved:${failures.size}:${requested}`;
      failures.set(name, err);
      return name;
    }
  };

  const load: JSModuleLoader = (name) => {
    if (failures.has(name)) return { error: guestError(vm, failures.get(name)) };
    if (!name.startsWith('node:') && !name.startsWith('file://') && !name.startsWith('/')) {
      return {
        error: guestError(vm, new ResolveError('ERR_MODULE_NOT_FOUND', `Cannot find module '${name}'`)),
      };
    }
    try {
      if (name.startsWith('node:')) {
        const builtin = name.slice(5);
        return generated(vm, `${INTERNAL}.requireBuiltin(${JSON.stringify(builtin)})`);
      }
      const path = name.startsWith('file://') ? fileUrlToPath(name) : name;
      const info = resolver.formatOf(path);
      if (info.format === 'json') {
        const text = loadSourceText(state.fs, path, false);
        JSON.parse(text);
        return `export default ${text};`;
      }
      if (info.format === 'commonjs') {
        return generated(vm, `${INTERNAL}.requireFile(${JSON.stringify(path)})`);
      }
      const source = loadSourceText(state.fs, path, info.typescript === true);
      // import.meta goes on a line of its own; stack frames are moved back one line (binding.lineOffset).
      state.prefixedModules.add(name);
      return `${importMeta(name, path)}\n${source}`;
    } catch (err) {
      if (isHandle(err)) return { error: err };
      return { error: guestError(vm, err) };
    }
  };

  return { load, normalize };
}

/** `import.meta` as Node fills it, in one line. */
function importMeta(url: string, path: string): string {
  return (
    `import.meta.url=${JSON.stringify(url)};import.meta.filename=${JSON.stringify(path)};` +
    `import.meta.dirname=${JSON.stringify(dirnameOf(path))};` +
    `import.meta.resolve=(s)=>${INTERNAL}.resolveUrl(s,${JSON.stringify(url)});`
  );
}

/**
 * Source of a module re-exporting the value of `expression` (evaluated now, in the guest): default is
 * the value, named exports its own enumerable keys that are valid names.
 */
function generated(vm: QuickJSContext, expression: string): string {
  const result = vm.evalCode(
    `(() => { const m = ${expression}; return (m !== null && (typeof m === 'object' || typeof m === 'function')) ? JSON.stringify(Object.keys(m)) : '[]'; })()`,
    'node:internal/modules/esm/translators',
  );
  if (result.error) throw result.error;
  const keys = JSON.parse(result.value.consume((h) => vm.getString(h))) as string[];
  const names = keys.filter((k) => IDENTIFIER.test(k) && !RESERVED.has(k));
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

function isHandle(value: unknown): value is QuickJSHandle {
  return typeof value === 'object' && value !== null && 'alive' in value && 'dispose' in value;
}

/** A guest Error with Node's code for a resolve failure (or any host error). */
function guestError(vm: QuickJSContext, err: unknown): QuickJSHandle {
  const e = err instanceof Error ? err : new Error(String(err));
  // Made by the guest's own Error constructor, so its stack reads "Error: <message>" with the frames.
  const handle = vm
    .getProp(vm.global, 'Error')
    .consume((ctor) =>
      vm.newString(e.message).consume((msg) => vm.unwrapResult(vm.callFunction(ctor, vm.undefined, msg))),
    );
  if (err instanceof ResolveError || (e as { code?: string }).code) {
    const code = vm.newString((e as { code?: string }).code ?? 'ERR_INTERNAL');
    vm.setProp(handle, 'code', code);
    code.dispose();
  }
  return handle;
}
