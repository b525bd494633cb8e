'use strict';
// Starts the program the command line asked for: a script (CommonJS or ES module), `-e`/`-p` code,
// code on stdin, `--check`, or `--test` files. Preloads (-r, --import) run first.

const binding = require('internal/binding');
const modules = require('internal/modules');
const fatal = require('internal/fatal');

function run() {
  process._configure();
  const info = JSON.parse(binding.info());
  const plan = info.plan;
  const cwd = binding.cwd();
  const base = `${cwd === '/' ? '' : cwd}/`;
  let chain = Promise.resolve();
  for (const id of plan.requires) modules.Module._load(id, { filename: `${base}[preload]` });
  for (const id of plan.imports) {
    chain = chain.then(() => import(importSpecifier(id, base)));
  }
  const start = () => {
    switch (plan.mode) {
      case 'script':
        return runScript(plan.script, base);
      case 'check':
        return checkScript(plan.script, base);
      case 'eval':
      case 'print':
        return runCode(plan.code ?? '', plan, base, '[eval]');
      case 'stdin':
        return runCode(binding.stdinText(), plan, base, '[stdin]');
      case 'test':
        return runTests(info.testFiles, base, plan);
      default:
        return undefined;
    }
  };
  if (plan.imports.length === 0) return start();
  chain.then(start).catch(fatal.uncaught);
  return undefined;
}

function importSpecifier(id, base) {
  if (id.startsWith('./') || id.startsWith('../') || id.startsWith('/')) {
    return modules.pathToFileUrl(id.startsWith('/') ? id : base + id);
  }
  return id;
}

/** Where the main script is: resolved like require() of its path (so `node src/index` finds index.js). */
function resolveMain(script, base) {
  const abs = script.startsWith('/') ? script : base + script;
  const result = binding.resolve(abs, `${base}[main]`, 'require');
  if (modules.isHostError(result)) {
    const err = new Error(`Cannot find module '${normalize(abs)}'`);
    err.code = 'MODULE_NOT_FOUND';
    err.requireStack = [];
    throw err;
  }
  return JSON.parse(result);
}

let mainPromise;

function runScript(script, base) {
  const resolved = resolveMain(script, base);
  process.argv[1] = resolved.path;
  if (resolved.format === 'module') {
    mainPromise = import(modules.pathToFileUrl(resolved.path));
    trackMain(mainPromise);
    return undefined;
  }
  modules.Module._load(resolved.path, null, true);
  return undefined;
}

function checkScript(script, base) {
  const resolved = resolveMain(script, base);
  const text = binding.loadSource(resolved.path, resolved.typescript === true);
  if (modules.isHostError(text)) throw modules.hostError(text);
  if (resolved.format !== 'module') binding.compile(text, resolved.path);
}

function runCode(code, plan, base, name) {
  const asModule =
    plan.inputType === 'module' ||
    (plan.inputType !== 'commonjs' && /^\s*(import\s*[\w{*'"]|export\s)/m.test(code));
  if (asModule) {
    if (plan.mode === 'print') {
      const err = new Error('--print cannot be used with ESM input');
      err.code = 'ERR_EVAL_ESM_CANNOT_PRINT';
      throw err;
    }
    const result = binding.evalModule(code, modules.pathToFileUrl(`${base}${name}`));
    if (result && typeof result.then === 'function') trackMain(result);
    return undefined;
  }
  const require = modules.createRequire(`${base}${name}`);
  const module = { exports: {}, filename: `${base}${name}`, id: name, loaded: false };
  const fn = binding.compile('return eval(arguments[5]);', name);
  const value = fn.call(globalThis, module.exports, require, module, name, '.', code);
  if (plan.mode === 'print') console.log(value);
  return undefined;
}

function trackMain(promise) {
  promise.then(
    () => {
      mainPromise = undefined;
    },
    (err) => {
      mainPromise = undefined;
      fatal.uncaught(err);
    },
  );
  mainPromise = promise;
}

/** Top-level await that never settled: Node warns and exits 13. */
function unsettled() {
  if (!mainPromise) return false;
  const state = binding.promiseState(mainPromise);
  return state !== null && state[0] === 'pending';
}

/** `node --test`: every file reports into one summary (internal/test/runner). */
function runTests(files, base, plan) {
  const { run } = require('internal/test/runner');
  run({
    files,
    cwd: binding.cwd(),
    only: plan.testOnly,
    namePatterns: plan.testNamePatterns,
    ...(plan.testTimeoutMs !== undefined ? { timeout: plan.testTimeoutMs } : {}),
    load(file) {
      const resolved = JSON.parse(binding.resolve(file, `${base}[test]`, 'require'));
      if (resolved.format === 'module') return import(modules.pathToFileUrl(resolved.path));
      modules.Module._load(resolved.path, null, true);
      return undefined;
    },
  }).catch(fatal.uncaught);
  return undefined;
}

function normalize(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

module.exports = { run, unsettled };
