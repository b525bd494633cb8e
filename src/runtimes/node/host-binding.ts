/**
 * The host functions the guest runtime is built on, reachable only as `require('internal/binding')`
 * (the bootstrap takes the object off the global before any user code runs). This is the whole surface
 * between user code and the worker: the mirrored file system, output, timers, child_process requests
 * to the sandbox shell, randomness and hashes, compiling and resolving modules. Nothing here reaches
 * the network or the page.
 *
 * The functions are registered by name: the engine boots one VM, snapshots it, and restores a copy for
 * each run, re-registering the same names with callbacks bound to that run (`bindHostFunctions`).
 *
 * Conventions: a failing file or resolve operation returns `{ __error: true, code, message, … }` (the
 * guest turns it into a Node-shaped Error with a guest stack); binary data crosses as ArrayBuffer;
 * structured results as JSON strings.
 */

import { hmac } from '@noble/hashes/hmac.js';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha224, sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import {
  EvalFlags,
  JSValueHandle as Handle,
  type HostFunction,
  type JSValueHandle,
  type QuickJS,
} from 'quickjs-wasi';
import { FsError, normalize } from '../shared/mem-fs.ts';
import { GUEST_SOURCES, publicBuiltins } from './guest/sources.ts';
import { ResolveError, type Resolver } from './resolve.ts';
import type { RunState } from './run-state.ts';
import { loadSourceText } from './source-text.ts';

const HASHES = { md5, sha1, sha224, sha256, sha384, sha512 } as const;
type HashName = keyof typeof HASHES;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The run the functions act for (the engine swaps it in for each run). */
export interface StateHolder {
  state: RunState;
}

/** Prefix of the registered names (they are global to a VM and its snapshots). */
const PREFIX = 'tabcode.binding.';

/** CommonJS wrapper; kept on the first line so line numbers stay the file's own. */
export function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** Creates the binding object (at boot) and puts it on the global object as `__tabcode_binding`. */
export function installBinding(vm: QuickJS, holder: StateHolder, resolver: Resolver): void {
  const binding = vm.newObject();
  for (const [name, fn] of Object.entries(hostFunctions(vm, holder, resolver))) {
    const handle = vm.newFunction(PREFIX + name, fn);
    vm.setProp(binding, name, handle);
    handle.dispose();
  }
  vm.setProp(vm.global, '__tabcode_binding', binding);
  binding.dispose();
}

/** Re-registers the binding's functions on a VM restored from the boot snapshot. */
export function bindHostFunctions(vm: QuickJS, holder: StateHolder, resolver: Resolver): void {
  for (const [name, fn] of Object.entries(hostFunctions(vm, holder, resolver))) {
    vm.registerHostCallback(PREFIX + name, fn);
  }
}

function hostFunctions(vm: QuickJS, holder: StateHolder, resolver: Resolver): Record<string, HostFunction> {
  const str = (h: JSValueHandle | undefined) => (h === undefined || h.isUndefined ? '' : h.toString());
  const json = (value: unknown) => vm.newString(JSON.stringify(value));
  return {
    builtinSource: (name) => {
      const source = GUEST_SOURCES[str(name)];
      return source === undefined ? vm.undefined : vm.newString(source);
    },
    // A syntax error surfaces in the guest as QuickJS's own SyntaxError (with its file and line).
    compile: (source, filename) => vm.evalCode(wrapCommonJs(str(source)), str(filename)),
    info: () => {
      const s = holder.state;
      return json({
        plan: s.plan,
        testFiles: s.testFiles,
        env: s.env,
        cwd: s.cwd,
        root: s.request.root,
        memoryLimitBytes: s.request.memoryLimitBytes,
      });
    },
    cwd: () => vm.newString(holder.state.cwd),
    chdir: (path) => {
      const state = holder.state;
      const target = absolute(state, str(path));
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
      const text = data.isString ? data.toString() : decoder.decode(bytesOf(data));
      holder.state.write(fd.toNumber() === 2 ? 'stderr' : 'stdout', text);
      return vm.undefined;
    },
    stdin: () => vm.newArrayBuffer(holder.state.request.stdin.slice()),
    stdinText: () => vm.newString(decoder.decode(holder.state.request.stdin)),
    outOfMemory: () => {
      holder.state.outOfMemory = true;
      holder.state.exiting = true;
      return vm.undefined;
    },
    ticksPending: () => {
      holder.state.ticksPending = true;
      return vm.undefined;
    },
    exit: (code) => {
      holder.state.exitCode = code.toNumber();
      holder.state.exiting = true;
      return vm.undefined;
    },
    timer: (op, id, ms) => {
      const state = holder.state;
      const which = str(op);
      const n = id.toNumber();
      if (which === 'set') {
        const delay = ms.toNumber();
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
      const state = holder.state;
      const opts = JSON.parse(str(options)) as { cwd?: string; env?: Record<string, string>; stdin?: string };
      state.startExec({
        id: id.toNumber(),
        command: str(command),
        cwd: opts.cwd ? absolute(state, opts.cwd) : state.cwd,
        env: opts.env ?? state.env,
        stdin: opts.stdin ?? '',
      });
      return vm.undefined;
    },
    random: (n) => {
      const bytes = new Uint8Array(Math.max(0, Math.min(65_536, n.toNumber())));
      crypto.getRandomValues(bytes);
      return vm.newArrayBuffer(bytes);
    },
    digest: (alg, data, key) => {
      const name = str(alg).toLowerCase().replace('-', '') as HashName;
      const hash = HASHES[name];
      if (!hash) {
        return errorObject(
          vm,
          Object.assign(new Error(`Digest method not supported: ${name}`), {
            code: 'ERR_OSSL_EVP_UNSUPPORTED',
          }),
        );
      }
      const bytes = bytesOf(data);
      const out = key && !key.isUndefined ? hmac(hash, bytesOf(key), bytes) : hash(bytes);
      return vm.newArrayBuffer(out.slice());
    },
    hrtime: () => vm.newNumber(performance.now()),
    lineOffset: (url) => (holder.state.prefixedModules.has(str(url)) ? vm.true : vm.false),
    resolve: (specifier, parent, kind) => {
      try {
        const resolved = resolver.resolve(
          str(specifier),
          str(parent),
          str(kind) === 'import' ? 'import' : 'require',
        );
        return json(resolved);
      } catch (err) {
        return errorObject(vm, err);
      }
    },
    loadSource: (path, typescript) => {
      try {
        return vm.newString(loadSourceText(holder.state.fs, str(path), typescript.toBoolean()));
      } catch (err) {
        return errorObject(vm, err);
      }
    },
    promiseState: (value) => promiseState(vm, value),
    /** Evaluates `source` as an ES module named `url` (node -e with module syntax, require(esm)). */
    evalModule: (source, url) => vm.evalCode(str(source), str(url), EvalFlags.TYPE_MODULE),
    builtinNames: () => json(publicBuiltins()),
    fs: (op, a, b, c) => fsCall(vm, holder.state, str(op), a, b, c),
  };
}

/** null for a non-promise, else [state] or [state, value] ('pending' | 'fulfilled' | 'rejected'). */
function promiseState(vm: QuickJS, value: JSValueHandle): JSValueHandle {
  if (!value.isObject) return vm.null;
  const state = value.promiseState;
  if (state < 0) return vm.null;
  const name = state === 0 ? 'pending' : state === 1 ? 'fulfilled' : 'rejected';
  const out = vm.newArray();
  const nameHandle = vm.newString(name);
  out.setProp('0', nameHandle);
  nameHandle.dispose();
  if (state !== 0) {
    // The settled value, read without running guest code (the same call resolvePromise makes).
    const exports = (vm as unknown as { exports?: { qjs_promise_result?: (ptr: number) => number } }).exports;
    if (exports?.qjs_promise_result) {
      const result = new Handle(vm, exports.qjs_promise_result(value.ptr));
      out.setProp('1', result);
      result.dispose();
    }
  }
  return out;
}

function absolute(state: RunState, path: string): string {
  return normalize(path.startsWith('/') ? path : `${state.cwd}/${path}`);
}

function bytesOf(handle: JSValueHandle): Uint8Array {
  if (handle.isString) return encoder.encode(handle.toString());
  if (handle.isArrayBuffer) return new Uint8Array(handle.toArrayBuffer());
  return handle.toUint8Array();
}

/** A guest error object for a host failure (FsError, ResolveError or anything else). */
function errorObject(vm: QuickJS, err: unknown): JSValueHandle {
  const e = err as {
    message?: string;
    code?: string;
    errno?: number;
    syscall?: string;
    path?: string;
    dest?: string;
  };
  const obj: Record<string, unknown> = { __error: true, message: e?.message ?? String(err) };
  if (e?.code !== undefined) obj.code = e.code;
  if (err instanceof FsError) {
    obj.errno = e.errno;
    obj.syscall = e.syscall;
    if (e.path !== undefined) obj.path = e.path;
    if (e.dest !== undefined) obj.dest = e.dest;
  }
  if (err instanceof ResolveError) obj.kind = 'resolve';
  return vm.hostToHandle(obj);
}

/** The synchronous file operations (fs.*Sync and everything built on them). */
function fsCall(
  vm: QuickJS,
  state: RunState,
  op: string,
  a: JSValueHandle | undefined,
  b: JSValueHandle | undefined,
  c: JSValueHandle | undefined,
): JSValueHandle {
  const fs = state.fs;
  const str = (h: JSValueHandle | undefined) => (h === undefined || h.isUndefined ? '' : h.toString());
  const path = (h: JSValueHandle | undefined) => absolute(state, str(h));
  const json = (h: JSValueHandle | undefined) => (h?.isString ? JSON.parse(h.toString()) : {});
  try {
    switch (op) {
      case 'stat':
      case 'lstat':
        return vm.newString(JSON.stringify(fs.stat(path(a), op === 'stat')));
      case 'exists':
        return fs.exists(path(a)) ? vm.true : vm.false;
      case 'readFile':
        return vm.newArrayBuffer(fs.readFile(path(a)).slice());
      case 'readFileUtf8':
        return vm.newString(decoder.decode(fs.readFile(path(a))));
      case 'writeFile': {
        const opts = json(c) as { flag?: string; mode?: number };
        fs.writeFile(path(a), b && !b.isUndefined ? bytesOf(b) : new Uint8Array(), opts);
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
        fs.copyFile(path(a), path(b), c?.toBoolean() === true);
        return vm.undefined;
      case 'symlink':
        fs.symlink(str(a), path(b));
        return vm.undefined;
      case 'readlink':
        return vm.newString(fs.readlink(path(a)));
      case 'realpath':
        return vm.newString(fs.realpath(path(a)));
      case 'utimes':
        fs.utimes(path(a), b?.toNumber() ?? Date.now());
        return vm.undefined;
      case 'chmod':
        fs.chmod(path(a), b?.toNumber() ?? 0o644);
        return vm.undefined;
      case 'truncate':
        fs.truncate(path(a), b && !b.isUndefined ? b.toNumber() : 0);
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
