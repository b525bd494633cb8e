'use strict';
// console, as Node's: log/info/debug to stdout, error/warn/trace to stderr, formatted with
// util.formatWithOptions; dir, table, group, time, count, assert; and the Console class.

const util = require('node:util');

const kCounts = Symbol('counts');
const kTimers = Symbol('timers');
const kIndent = Symbol('indent');

function streamWrite(stream, text) {
  stream.write(text);
}

class Console {
  constructor(stdout, stderr, ignoreErrors) {
    let options = stdout;
    if (!options || typeof options.write === 'function') options = { stdout, stderr, ignoreErrors };
    if (!options.stdout || typeof options.stdout.write !== 'function') {
      const err = new TypeError('The "stdout" argument must be an instance of Stream.');
      err.code = 'ERR_CONSOLE_WRITABLE_STREAM';
      throw err;
    }
    this._stdout = options.stdout;
    this._stderr = options.stderr ?? options.stdout;
    this._inspectOptions = options.inspectOptions ?? {};
    this[kCounts] = new Map();
    this[kTimers] = new Map();
    this[kIndent] = '';
    // Methods work detached (const { log } = console), as in Node.
    for (const name of Object.getOwnPropertyNames(Console.prototype)) {
      if (name !== 'constructor' && typeof this[name] === 'function') this[name] = this[name].bind(this);
    }
  }

  _print(toErr, args) {
    let text = util.formatWithOptions(this._inspectOptions, ...args);
    if (this[kIndent]) text = this[kIndent] + text.replaceAll('\n', `\n${this[kIndent]}`);
    streamWrite(toErr ? this._stderr : this._stdout, `${text}\n`);
  }

  log(...args) {
    this._print(false, args);
  }
  info(...args) {
    this._print(false, args);
  }
  debug(...args) {
    this._print(false, args);
  }
  error(...args) {
    this._print(true, args);
  }
  warn(...args) {
    this._print(true, args);
  }
  dir(value, options) {
    this._print(false, [util.inspect(value, { ...this._inspectOptions, ...options })]);
  }
  dirxml(...args) {
    this.log(...args);
  }
  trace(...args) {
    const err = new Error(util.formatWithOptions(this._inspectOptions, ...args));
    err.name = 'Trace';
    const stack = String(err.stack).split('\n');
    // Drop this method's own frame, as Node does.
    this._print(true, [[stack[0], ...stack.slice(2)].join('\n')]);
  }
  assert(condition, ...args) {
    if (condition) return;
    if (args.length && typeof args[0] === 'string') args[0] = `Assertion failed: ${args[0]}`;
    else args.unshift('Assertion failed');
    this.warn(...args);
  }
  count(label = 'default') {
    label = `${label}`;
    const n = (this[kCounts].get(label) ?? 0) + 1;
    this[kCounts].set(label, n);
    this.log(`${label}: ${n}`);
  }
  countReset(label = 'default') {
    label = `${label}`;
    if (!this[kCounts].has(label)) {
      process.emitWarning(`Count for '${label}' does not exist`);
      return;
    }
    this[kCounts].set(label, 0);
  }
  group(...args) {
    if (args.length) this.log(...args);
    this[kIndent] += '  ';
  }
  groupCollapsed(...args) {
    this.group(...args);
  }
  groupEnd() {
    this[kIndent] = this[kIndent].slice(0, -2);
  }
  time(label = 'default') {
    label = `${label}`;
    if (this[kTimers].has(label)) {
      process.emitWarning(`Label '${label}' already exists for console.time()`);
      return;
    }
    this[kTimers].set(label, performance.now());
  }
  timeEnd(label = 'default') {
    label = `${label}`;
    if (this._timeLog('timeEnd', label, [])) this[kTimers].delete(label);
  }
  timeLog(label = 'default', ...data) {
    this._timeLog('timeLog', `${label}`, data);
  }
  _timeLog(name, label, data) {
    const start = this[kTimers].get(label);
    if (start === undefined) {
      process.emitWarning(`No such label '${label}' for console.${name}()`);
      return false;
    }
    this.log(`${label}: ${formatTime(performance.now() - start)}`, ...data);
    return true;
  }
  table(data, properties) {
    if (data === null || typeof data !== 'object') {
      this.log(data);
      return;
    }
    this.log(renderTable(data, properties, this._inspectOptions));
  }
}

function formatTime(ms) {
  if (ms >= 1000) {
    if (ms >= 60_000) {
      if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(3)}h`;
      return `${(ms / 60_000).toFixed(3)}min`;
    }
    return `${(ms / 1000).toFixed(3)}s`;
  }
  return `${Number(ms.toFixed(3))}ms`;
}

/** console.table's box drawing, as Node prints it. */
function renderTable(data, properties, inspectOptions) {
  const fmt = (v) =>
    v === undefined
      ? ''
      : util.inspect(v, { ...inspectOptions, depth: 1, breakLength: Infinity, compact: true });
  const isMap = data instanceof Map;
  const rows = isMap
    ? [...data.entries()]
    : data instanceof Set
      ? [...data].map((v, i) => [i, v])
      : Object.entries(data);
  const indexHeader = isMap ? '(iteration index)' : '(index)';
  const columns = [];
  let hasValues = false;
  const table = rows.map(([key, value], i) => {
    const row = { index: isMap ? String(i) : String(key), cells: new Map() };
    if (isMap) row.cells.set('Key', fmt(key));
    if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      for (const k of properties ?? Object.keys(value)) {
        if (!columns.includes(k)) columns.push(k);
        row.cells.set(k, fmt(value[k]));
      }
    } else {
      hasValues = true;
      row.value = fmt(value);
    }
    return row;
  });
  const headers = [indexHeader, ...(isMap ? ['Key'] : []), ...columns, ...(hasValues ? ['Values'] : [])];
  const matrix = table.map((row) => [
    row.index,
    ...(isMap ? [row.cells.get('Key') ?? ''] : []),
    ...columns.map((c) => row.cells.get(c) ?? ''),
    ...(hasValues ? [row.value ?? ''] : []),
  ]);
  const width = (s) => [...util.stripVTControlCharacters(s)].length;
  const widths = headers.map((h, i) => Math.max(width(h), ...matrix.map((r) => width(r[i]))) + 2);
  const center = (s, w) => {
    const pad = w - width(s);
    const left = Math.floor(pad / 2);
    return ' '.repeat(left) + s + ' '.repeat(pad - left);
  };
  const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w)).join(m) + r;
  const out = [
    line('┌', '┬', '┐'),
    `│${headers.map((h, i) => center(h, widths[i])).join('│')}│`,
    line('├', '┼', '┤'),
  ];
  for (const r of matrix) out.push(`│${r.map((c, i) => center(c, widths[i])).join('│')}│`);
  out.push(line('└', '┴', '┘'));
  return out.join('\n');
}

const globalConsole = new Console({ stdout: process.stdout, stderr: process.stderr });
globalConsole.Console = Console;

module.exports = globalConsole;
