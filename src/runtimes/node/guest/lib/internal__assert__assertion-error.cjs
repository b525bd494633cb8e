'use strict';
// assert.AssertionError with Node's generated messages: "Expected values to be strictly equal:\n\n1 !== 2\n",
// the `+ actual - expected` line diff of both values inspected (sorted keys, no depth limit), the
// position marker under single-line mismatches, and Node's inspection of the error itself.
// The diff follows Node 20/22's line-by-line algorithm (not the Myers diff of later Node versions).

const { inspect } = require('internal/util/inspect');
const { validateObject } = require('internal/errors');

const READABLE = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};

/** Single-line inputs up to this many characters together are shown as "a !== b". */
const MAX_SHORT_LENGTH = 12;
/** Columns assumed for the mismatch marker when stderr is not a terminal. */
const DEFAULT_COLUMNS = 80;
/** Lines of a diff shown before the rest is cut. */
const MAX_DIFF_LINES = 50;

function inspectValue(value) {
  return inspect(value, {
    compact: false,
    customInspect: false,
    depth: 1000,
    maxArrayLength: Number.POSITIVE_INFINITY,
    showHidden: false,
    showProxy: false,
    sorted: true,
    getters: true,
  });
}

const isObjectLike = (v) => typeof v === 'object' && v !== null;

/**
 * The message for a failed strictEqual/deepStrictEqual. A custom `header` (the user's message) replaces
 * the operator's wording, as Node does, except for values that only differ by reference.
 */
function createErrDiff(actual, expected, givenOperator, header = undefined) {
  let operator = givenOperator;
  let other = '';
  let res = '';
  let end = '';
  let skipped = false;
  const actualInspected = inspectValue(actual);
  const actualLines = actualInspected.split('\n');
  const expectedLines = inspectValue(expected).split('\n');
  let i = 0;
  let indicator = '';

  if (
    operator === 'strictEqual' &&
    ((isObjectLike(actual) && isObjectLike(expected)) ||
      (typeof actual === 'function' && typeof expected === 'function'))
  ) {
    operator = 'strictEqualObject';
  }

  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const inputLength = actualLines[0].length + expectedLines[0].length;
    if (inputLength <= MAX_SHORT_LENGTH) {
      if (!isObjectLike(actual) && !isObjectLike(expected) && (actual !== 0 || expected !== 0)) {
        return `${header ?? READABLE[operator]}\n\n${actualLines[0]} !== ${expectedLines[0]}\n`;
      }
    } else if (operator !== 'strictEqualObject') {
      const stderr = globalThis.process?.stderr;
      const maxLength = stderr?.isTTY ? stderr.columns : DEFAULT_COLUMNS;
      if (inputLength < maxLength) {
        while (actualLines[0][i] === expectedLines[0][i]) i++;
        if (i > 2) {
          indicator = `\n  ${' '.repeat(i)}^`;
          i = 0;
        }
      }
    }
  }

  // Identical lines at the end are folded into `end`, at most three shown.
  let a = actualLines.at(-1);
  let b = expectedLines.at(-1);
  while (a === b) {
    if (i++ < 3) end = `\n  ${a}${end}`;
    else other = a;
    actualLines.pop();
    expectedLines.pop();
    if (actualLines.length === 0 || expectedLines.length === 0) break;
    a = actualLines.at(-1);
    b = expectedLines.at(-1);
  }

  const maxLines = Math.max(actualLines.length, expectedLines.length);
  if (maxLines === 0) {
    const lines = actualInspected.split('\n');
    if (lines.length > 50) {
      lines[46] = '...';
      lines.length = 47;
    }
    return `${READABLE.notIdentical}\n\n${lines.join('\n')}\n`;
  }

  if (i >= 5) {
    end = `\n...${end}`;
    skipped = true;
  }
  if (other !== '') {
    end = `\n  ${other}${end}`;
    other = '';
  }

  let printedLines = 0;
  let identical = 0;
  const msg = `${header ?? READABLE[operator]}\n+ actual - expected`;
  const skippedMsg = ' ... Lines skipped';

  let lines = actualLines;
  let plusMinus = '+';
  let maxLength = expectedLines.length;
  if (actualLines.length < maxLines) {
    lines = expectedLines;
    plusMinus = '-';
    maxLength = actualLines.length;
  }

  const printIdenticalRun = (source) => {
    if (identical > 2) {
      if (identical > 3) {
        if (identical > 4) {
          if (identical === 5) {
            res += `\n  ${source[i - 3]}`;
            printedLines++;
          } else {
            res += '\n...';
            skipped = true;
          }
        }
        res += `\n  ${source[i - 2]}`;
        printedLines++;
      }
      res += `\n  ${source[i - 1]}`;
      printedLines++;
    }
    identical = 0;
  };

  for (i = 0; i < maxLines; i++) {
    if (maxLength < i + 1) {
      // Only one side has lines left.
      printIdenticalRun(lines);
      if (lines === actualLines) res += `\n${plusMinus} ${lines[i]}`;
      else other += `\n${plusMinus} ${lines[i]}`;
      printedLines++;
    } else {
      const expectedLine = expectedLines[i];
      let actualLine = actualLines[i];
      let diverging =
        actualLine !== expectedLine &&
        (!actualLine.endsWith(',') || actualLine.slice(0, -1) !== expectedLine);
      // A line that differs only by the expected side's trailing comma is the same line.
      if (diverging && expectedLine.endsWith(',') && expectedLine.slice(0, -1) === actualLine) {
        diverging = false;
        actualLine += ',';
      }
      if (diverging) {
        printIdenticalRun(actualLines);
        res += `\n+ ${actualLine}`;
        other += `\n- ${expectedLine}`;
        printedLines += 2;
      } else {
        res += other;
        other = '';
        identical++;
        if (identical <= 2) {
          res += `\n  ${actualLine}`;
          printedLines++;
        }
      }
    }
    if (printedLines > MAX_DIFF_LINES && i < maxLines - 2) {
      return `${msg}${skippedMsg}\n${res}\n...${other}\n...`;
    }
  }
  return `${msg}${skipped ? skippedMsg : ''}\n${res}${other}${end}${indicator}`;
}

function copyError(source) {
  const target = Object.assign({ __proto__: Object.getPrototypeOf(source) }, source);
  Object.defineProperty(target, 'message', { value: source.message });
  if (Object.hasOwn(source, 'cause')) {
    let { cause } = source;
    if (cause instanceof Error) cause = copyError(cause);
    Object.defineProperty(target, 'cause', { value: cause });
  }
  return target;
}

function addEllipsis(string) {
  const lines = string.split('\n', 11);
  if (lines.length > 10) {
    lines.length = 10;
    return `${lines.join('\n')}\n...`;
  }
  if (string.length > 512) return `${string.slice(512)}...`;
  return string;
}

function generateMessage(actual, expected, operator) {
  if (operator === 'deepStrictEqual' || operator === 'strictEqual')
    return createErrDiff(actual, expected, operator);
  if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
    let base = READABLE[operator];
    const res = inspectValue(actual).split('\n');
    if (operator === 'notStrictEqual' && (isObjectLike(actual) || typeof actual === 'function')) {
      base = READABLE.notStrictEqualObject;
    }
    if (res.length > 50) {
      res[46] = '...';
      res.length = 47;
    }
    if (res.length === 1) return `${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}`;
    return `${base}\n\n${res.join('\n')}\n`;
  }
  let res = inspectValue(actual);
  let other = inspectValue(expected);
  const known = READABLE[operator];
  if (operator === 'notDeepEqual' && res === other) {
    res = `${known}\n\n${res}`;
    return res.length > 1024 ? `${res.slice(0, 1021)}...` : res;
  }
  if (res.length > 512) res = `${res.slice(0, 509)}...`;
  if (other.length > 512) other = `${other.slice(0, 509)}...`;
  if (operator === 'deepEqual') {
    res = `${known}\n\n${res}\n\nshould loosely deep-equal\n\n`;
  } else {
    const unequal = READABLE[`${operator}Unequal`];
    if (unequal) res = `${unequal}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
    else other = ` ${operator} ${other}`;
  }
  return `${res}${other}`;
}

class AssertionError extends Error {
  constructor(options) {
    validateObject(options, 'options');
    const { message, operator, stackStartFn, details } = options;
    let { actual, expected } = options;
    if (message != null) {
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
        super(createErrDiff(actual, expected, operator, String(message)));
      } else {
        super(String(message));
      }
    } else {
      if (
        isObjectLike(actual) &&
        isObjectLike(expected) &&
        'stack' in actual &&
        actual instanceof Error &&
        'stack' in expected &&
        expected instanceof Error
      ) {
        actual = copyError(actual);
        expected = copyError(expected);
      }
      super(generateMessage(actual, expected, operator));
    }
    this.generatedMessage = !message;
    Object.defineProperty(this, 'name', {
      value: 'AssertionError [ERR_ASSERTION]',
      enumerable: false,
      writable: true,
      configurable: true,
    });
    this.code = 'ERR_ASSERTION';
    if (details) {
      this.actual = undefined;
      this.expected = undefined;
      this.operator = undefined;
      for (let i = 0; i < details.length; i++) {
        this[`message ${i}`] = details[i].message;
        this[`actual ${i}`] = details[i].actual;
        this[`expected ${i}`] = details[i].expected;
        this[`operator ${i}`] = details[i].operator;
        this[`stack trace ${i}`] = details[i].stack;
      }
    } else {
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
    }
    if (typeof Error.captureStackTrace === 'function')
      Error.captureStackTrace(this, stackStartFn || AssertionError);
    require('internal/errors').setStackHeader(this, `AssertionError [ERR_ASSERTION]: ${this.message}`);
    this.name = 'AssertionError';
  }

  toString() {
    return `${this.name} [${this.code}]: ${this.message}`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](_recurseTimes, ctx) {
    const tmpActual = this.actual;
    const tmpExpected = this.expected;
    if (typeof this.actual === 'string') this.actual = addEllipsis(this.actual);
    if (typeof this.expected === 'string') this.expected = addEllipsis(this.expected);
    const result = inspect(this, { ...ctx, customInspect: false, depth: 0 });
    this.actual = tmpActual;
    this.expected = tmpExpected;
    return result;
  }
}

module.exports = { AssertionError, inspectValue };
