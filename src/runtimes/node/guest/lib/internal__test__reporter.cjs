'use strict';
// The `spec` reporter, as Node 22 prints it when colours are off (stdout is not a terminal).
//
// It consumes the runner's events in the order Node emits them:
//   'test:start'      { name, nesting }            (a test whose result or a descendant's is about to print)
//   'test:pass'/'test:fail' { name, nesting, file, line, column, skip, todo,
//                       details: { duration_ms, error, type } }
//   'test:diagnostic' { nesting, message }
//   'test:summary'    {}                            (the end: prints the "failing tests" section)
// and returns the text to write for each (or '' for none).
const { kSubtestsFailed, inspect, relativePath } = require('internal/test/utils');

const SYMBOLS = {
  'test:fail': '\u2716 ',
  'test:pass': '\u2714 ',
  'test:diagnostic': '\u2139 ',
  'arrow:right': '\u25B6 ',
  'hyphen:minus': '\uFE63 ',
};

function indent(nesting) {
  return nesting > 0 ? '  '.repeat(nesting) : '';
}

/** The thrown value under a test failure, printed as util.inspect does, each line indented. */
function formatError(error, pad) {
  if (!error) return '';
  const err = error.code === 'ERR_TEST_FAILURE' ? error.cause : error;
  const message = inspect(err).split(/\r?\n/).join(`\n${pad}  `);
  return `\n${pad}  ${message}\n`;
}

function formatTestReport(type, data, prefix = '', pad = '', hasChildren = false) {
  let symbol = SYMBOLS[type] ?? ' ';
  const { skip, todo } = data;
  const duration = data.details?.duration_ms;
  let title = `${data.name}${duration ? ` (${duration}ms)` : ''}`;
  if (skip !== undefined) {
    title += ` # ${typeof skip === 'string' && skip.length ? skip : 'SKIP'}`;
  } else if (todo !== undefined) {
    title += ` # ${typeof todo === 'string' && todo.length ? todo : 'TODO'}`;
  }
  const error = formatError(data.details?.error, pad);
  const failureType = data.details?.error?.failureType;
  const err = hasChildren ? (!error || failureType === kSubtestsFailed ? '' : `\n${error}`) : error;
  if (skip !== undefined) symbol = SYMBOLS['hyphen:minus'];
  return `${prefix}${pad}${symbol}${title}${err}`;
}

class SpecReporter {
  /** @param {{ cwd?: string }} [options] `cwd` makes the failure locations relative, as Node does. */
  constructor(options = {}) {
    this.cwd = options.cwd ?? (globalThis.process && typeof process.cwd === 'function' ? process.cwd() : '/');
    this.stack = [];
    this.reported = [];
    this.failedTests = [];
  }

  /** Returns the text for one event ('' when it prints nothing). Never throws for well-formed data. */
  event(type, data) {
    switch (type) {
      case 'test:fail':
        if (!(data.details?.error && data.details.error.failureType === kSubtestsFailed)) {
          this.failedTests.push(data);
        }
        return this.result(type, data);
      case 'test:pass':
        return this.result(type, data);
      case 'test:start':
        this.stack.unshift({ data, type });
        return '';
      case 'test:diagnostic':
        return `${indent(data.nesting)}${SYMBOLS[type]}${data.message}\n`;
      case 'test:summary':
        return this.failingTests();
      default:
        return '';
    }
  }

  result(type, data) {
    this.stack.shift(); // the matching 'test:start'
    let prefix = '';
    while (this.stack.length) {
      // Parents whose first descendant is reporting now get their "▶ name" line.
      const parent = this.stack.pop().data;
      this.reported.unshift(parent);
      prefix += `${indent(parent.nesting)}${SYMBOLS['arrow:right']}${parent.name}\n`;
    }
    let hasChildren = false;
    if (
      this.reported[0] &&
      this.reported[0].nesting === data.nesting &&
      this.reported[0].name === data.name
    ) {
      this.reported.shift();
      hasChildren = true;
    }
    return `${formatTestReport(type, data, prefix, indent(data.nesting), hasChildren)}\n`;
  }

  failingTests() {
    if (this.failedTests.length === 0) return '';
    const results = [`\n${SYMBOLS['test:fail']}failing tests:\n`];
    for (const test of this.failedTests) {
      if (test.file) results.push(`test at ${relativePath(this.cwd, test.file)}:${test.line}:${test.column}`);
      results.push(formatTestReport('test:fail', test));
    }
    this.failedTests = [];
    return results.join('\n');
  }
}

module.exports = { SpecReporter, formatTestReport };
