/**
 * The host functions the guest runtime is built on, installed as `__tabcode_binding` (the bootstrap takes
 * it off the global object before user code runs). This is the whole surface between user code and the
 * worker: the mirrored file system, output, timers, child_process requests to the sandbox shell,
 * randomness and hashes, compiling and resolving modules. Nothing here reaches the network or the page.
 *
 * Conventions: a failing file or resolve operation returns `{ __error: true, code, message, … }` (the
 * guest turns it into a Node-shaped Error with a guest stack); binary data crosses as ArrayBuffer;
 * structured results as JSON strings.
 */

import { hmac } from '@noble/hashes/hmac.js';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha224, sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import type { QuickJSContext, QuickJSHandle, VmFunctionImplementation } from 'quickjs-emscripten-core';
import { FsError, normalize } from '../shared/mem-fs.ts';
import type { RunState } from './engine.ts';
import { GUEST_SOURCES, publicBuiltins } from './guest/sources.ts';
import { ResolveError, type Resolver } from './resolve.ts';
import { loadSourceText } from './source-text.ts';

const HASHES = { md5, sha1, sha224, sha256, sha384, sha512 } as const;
type HashName = keyof typeof HASHES;

const decoder = new TextDecoder();

/** CommonJS wrapper; kept on the first line so line numbers stay the file's own. */
export function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

export function installBinding(vm: QuickJSContext, state: RunState, resolver: Resolver): void {
  const binding = vm.newObject();
  const fns: Record<string, VmFunctionImplementation<QuickJSHandle>> = {
    builtinSource: (name) => {
      const source = GUEST_SOURCES[vm.getString(name)];
      return source === undefined ? vm.undefined : vm.newString(source);
    },
    // A syntax error is thrown in the guest as QuickJS's own SyntaxError (with its file and line).
    compile: (source, filename) => vm.evalCode(wrapCommonJs(vm.getString(source)), vm.getString(filename)),
    registerDispatch: (fn) => {
      state.dispatch?.dispose();
      state.dispatch = fn.dup();
      return undefined;
    },
    info: () =>
      vm.newString(
        JSON.stringify({
          plan: state.plan,
          testFiles: state.testFiles,
          env: state.env,
          cwd: state.cwd,
          root: state.request.root,
          memoryLimitBytes: state.request.memoryLimitBytes,
        }),
      ),
    cwd: () => vm.newString(state.cwd),
    chdir: (path) => {
      const target = absolute(state, vm.getString(path));
      try {
        const real = state.fs.realpath(target);
        if (state.fs.stat(real).type !== 'dir') throw new FsError('ENOTDIR', 'chdir', target);
        state.cwd = real;
        return vm.undefined;
      } catch (err) {
        return errorObject(vm, err);
      }
    },
    write: (fd, data) => {
      const text = vm.typeof(data) === 'string' ? vm.getString(data) : decoder.decode(bytesOf(vm, data));
      state.write(vm.getNumber(fd) === 2 ? 'stderr' : 'stdout', text);
      return vm.undefined;
    },
    stdin: () => vm.newArrayBuffer(state.request.stdin.slice().buffer),
    stdinText: () => vm.newString(decoder.decode(state.request.stdin)),
    outOfMemory: () => {
      state.outOfMemory = true;
      state.exiting = true;
      return vm.undefined;
    },
    ticksPending: () => {
      state.ticksPending = true;
      return vm.undefined;
    },
    exit: (code) => {
      state.exitCode = vm.getNumber(code);
      state.exiting = true;
      return vm.undefined;
    },
    timer: (op, id, ms) => {
      const which = vm.getString(op);
      const n = vm.getNumber(id);
      if (which === 'set') {
        const delay = vm.getNumber(ms);
        if (delay < 0) state.immediates.push(n);
        else {
          const handle = setTimeout(() => state.push({ kind: 'timer', id: n }), Math.max(1, delay));
          state.timers.set(n, { handle, refed: true });
        }
      } else if (which === 'clear') {
        const t = state.timers.get(n);
        if (t?.handle) clearTimeout(t.handle);
        state.timers.delete(n);
        const i = state.immediates.indexOf(n);
        if (i >= 0) state.immediates.splice(i, 1);
      } else {
        const t = state.timers.get(n);
        if (t) t.refed = which === 'ref';
      }
      return vm.undefined;
    },
    exec: (id, command, options) => {
      const opts = JSON.parse(vm.getString(options)) as {
        cwd?: string;
        env?: Record<string, string>;
        stdin?: string;
      };
      state.startExec({
        id: vm.getNumber(id),
        command: vm.getString(command),
        cwd: opts.cwd ? absolute(state, opts.cwd) : state.cwd,
        env: opts.env ?? state.env,
        stdin: opts.stdin ?? '',
      });
      return vm.undefined;
    },
    random: (n) => {
      const bytes = new Uint8Array(Math.max(0, Math.min(65_536, vm.getNumber(n))));
      crypto.getRandomValues(bytes);
      return vm.newArrayBuffer(bytes.buffer);
    },
    digest: (alg, data, key) => {
      const name = vm.getString(alg).toLowerCase().replace('-', '') as HashName;
      const hash = HASHES[name];
      if (!hash)
        return errorObject(
          vm,
          Object.assign(new Error(`Digest method not supported: ${name}`), {
            code: 'ERR_OSSL_EVP_UNSUPPORTED',
          }),
        );
      const bytes = bytesOf(vm, data);
      const out = key && vm.typeof(key) !== 'undefined' ? hmac(hash, bytesOf(vm, key), bytes) : hash(bytes);
      return vm.newArrayBuffer(out.slice().buffer);
    },
    hrtime: () => vm.newNumber(performance.now()),
    lineOffset: (url) => (state.prefixedModules.has(vm.getString(url)) ? vm.true : vm.false),
    resolve: (specifier, parent, kind) => {
      try {
        const resolved = resolver.resolve(
          vm.getString(specifier),
          vm.getString(parent),
          vm.getString(kind) === 'import' ? 'import' : 'require',
        );
        return vm.newString(JSON.stringify(resolved));
      } catch (err) {
        return errorObject(vm, err);
      }
    },
    loadSource: (path, typescript) => {
      try {
        return vm.newString(loadSourceText(state.fs, vm.getString(path), vm.dump(typescript) === true));
      } catch (err) {
        return errorObject(vm, err);
      }
    },
    promiseState: (value) => {
      const state = vm.getPromiseState(value);
      // For a non-promise the "value" is the argument itself, which the caller owns.
      if (state.type === 'fulfilled' && state.notAPromise) return vm.null;
      const out = vm.newArray();
      const name = vm.newString(state.type);
      vm.setProp(out, 0, name);
      name.dispose();
      if (state.type === 'fulfilled') state.value.consume((v) => vm.setProp(out, 1, v));
      else if (state.type === 'rejected') state.error.consume((e) => vm.setProp(out, 1, e));
      return out;
    },
    /** Evaluates `source` as an ES module named `url` (for `node -e` with module syntax, `--input-type=module`). */
    evalModule: (source, url) => vm.evalCode(vm.getString(source), vm.getString(url), { type: 'module' }),
    builtinNames: () => vm.newString(JSON.stringify(publicBuiltins())),
    fs: (op, a, b, c) => fsCall(vm, state, vm.getString(op), a, b, c),
  };
  for (const [name, impl] of Object.entries(fns)) {
    const fn = vm.newFunction(name, impl);
    vm.setProp(binding, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, '__tabcode_binding', binding);
  binding.dispose();
}

function absolute(state: RunState, path: string): string {
  return normalize(path.startsWith('/') ? path : `${state.cwd}/${path}`);
}

function bytesOf(vm: QuickJSContext, handle: QuickJSHandle): Uint8Array {
  if (vm.typeof(handle) === 'string') return new TextEncoder().encode(vm.getString(handle));
  return vm.getArrayBuffer(handle).consume((view) => view.value.slice());
}

/** A guest error object for a host failure (FsError, ResolveError or anything else). */
function errorObject(vm: QuickJSContext, err: unknown): QuickJSHandle {
  const obj = vm.newObject();
  const set = (key: string, value: string | number | undefined) => {
    if (value === undefined) return;
    const h = typeof value === 'number' ? vm.newNumber(value) : vm.newString(value);
    vm.setProp(obj, key, h);
    h.dispose();
  };
  vm.setProp(obj, '__error', vm.true);
  const e = err as {
    message?: string;
    code?: string;
    errno?: number;
    syscall?: string;
    path?: string;
    dest?: string;
  };
  set('message', e?.message ?? String(err));
  set('code', e?.code);
  if (err instanceof FsError) {
    set('errno', e.errno);
    set('syscall', e.syscall);
    set('path', e.path);
    set('dest', e.dest);
  }
  if (err instanceof ResolveError) set('kind', 'resolve');
  return obj;
}

/** The synchronous file operations (fs.*Sync and everything built on them). */
function fsCall(
  vm: QuickJSContext,
  state: RunState,
  op: string,
  a: QuickJSHandle | undefined,
  b: QuickJSHandle | undefined,
  c: QuickJSHandle | undefined,
): QuickJSHandle {
  const fs = state.fs;
  const str = (h: QuickJSHandle | undefined) => (h ? vm.getString(h) : '');
  const path = (h: QuickJSHandle | undefined) => absolute(state, str(h));
  const json = (h: QuickJSHandle | undefined) =>
    h && vm.typeof(h) === 'string' ? JSON.parse(vm.getString(h)) : {};
  try {
    switch (op) {
      case 'stat':
      case 'lstat':
        return vm.newString(JSON.stringify(fs.stat(path(a), op === 'stat')));
      case 'exists':
        return fs.exists(path(a)) ? vm.true : vm.false;
      case 'readFile':
        return vm.newArrayBuffer(fs.readFile(path(a)).slice().buffer);
      case 'readFileUtf8':
        return vm.newString(decoder.decode(fs.readFile(path(a))));
      case 'writeFile': {
        const opts = json(c) as { flag?: string; mode?: number };
        fs.writeFile(path(a), b ? bytesOf(vm, b) : new Uint8Array(), opts);
        return vm.undefined;
      }
      case 'mkdir': {
        const first = fs.mkdir(path(a), json(b) as { recursive?: boolean; mode?: number });
        return first === undefined ? vm.undefined : vm.newString(first);
      }
      case 'readdir':
        return vm.newString(JSON.stringify(fs.readdir(path(a))));
      case 'rm':
        fs.remove(
          path(a),
          json(b) as { recursive?: boolean; force?: boolean; kind?: 'rm' | 'unlink' | 'rmdir' },
        );
        return vm.undefined;
      case 'rename':
        fs.rename(path(a), path(b));
        return vm.undefined;
      case 'copyFile':
        fs.copyFile(path(a), path(b), vm.dump(c as QuickJSHandle) === true);
        return vm.undefined;
      case 'symlink':
        fs.symlink(str(a), path(b));
        return vm.undefined;
      case 'readlink':
        return vm.newString(fs.readlink(path(a)));
      case 'realpath':
        return vm.newString(fs.realpath(path(a)));
      case 'utimes':
        fs.utimes(path(a), vm.getNumber(b as QuickJSHandle));
        return vm.undefined;
      case 'chmod':
        fs.chmod(path(a), vm.getNumber(b as QuickJSHandle));
        return vm.undefined;
      case 'truncate':
        fs.truncate(path(a), b ? vm.getNumber(b) : 0);
        return vm.undefined;
      default:
        return errorObject(
          vm,
          Object.assign(new Error(`unknown fs operation ${op}`), { code: 'ERR_INTERNAL' }),
        );
    }
  } catch (err) {
    return errorObject(vm, err);
  }
}
