'use strict';
// Node-style errors for the guest's builtins: `err.code` is Node's (ERR_INVALID_ARG_TYPE, ...), the
// message reads as Node's, `String(err)` is `TypeError [ERR_X]: message`, and the stack's first line
// carries the code the way Node prints it. Also the argument validators the builtins share.

let inspectModule;
/** util.inspect, loaded on first use (internal/util/inspect requires this module). */
function lazyInspect(value, options) {
  inspectModule ??= require('internal/util/inspect');
  return inspectModule.inspect(value, options);
}

const STACK_FRAME = /^\s+at /;

/**
 * Gives `err` a stack whose first line is `header`, keeping the frames the engine recorded. QuickJS
 * records frames only ("    at f (file:1:2)"); an engine that installs a V8-style
 * Error.prepareStackTrace records a header line too, which is replaced.
 */
function setStackHeader(err, header) {
  const raw = typeof err.stack === 'string' ? err.stack : '';
  const lines = raw.split('\n');
  // Everything before the first frame is the engine's header (which may span lines).
  const first = lines.findIndex((line) => STACK_FRAME.test(line));
  const frames =
    first === -1
      ? ''
      : lines
          .slice(first)
          .filter((line) => line !== '')
          .join('\n');
  Object.defineProperty(err, 'stack', {
    value: frames === '' ? header : `${header}\n${frames}`,
    writable: true,
    enumerable: false,
    configurable: true,
  });
}

function nodeErrorToString() {
  return `${this.name} [${this.code}]: ${this.message}`;
}

/** Builds an error of class `Base` with Node's `code`, as Node's internal errors are built. */
function makeNodeError(Base, code, message, stackStartFn) {
  const err = new Base(message);
  if (typeof Error.captureStackTrace === 'function' && stackStartFn)
    Error.captureStackTrace(err, stackStartFn);
  Object.defineProperty(err, 'toString', {
    value: nodeErrorToString,
    writable: true,
    enumerable: false,
    configurable: true,
  });
  setStackHeader(err, `${err.name} [${code}]: ${message}`);
  err.code = code;
  return err;
}

/** `value` described as Node describes a received argument ("type number (1)", "an instance of Foo"). */
function describeReceived(value) {
  if (value == null) return `${value}`;
  if (typeof value === 'function' && value.name) return `function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor?.name) return `an instance of ${value.constructor.name}`;
    return lazyInspect(value, { depth: -1 });
  }
  let inspected = lazyInspect(value, { colors: false });
  if (inspected.length > 28) inspected = `${inspected.slice(0, 25)}...`;
  return `type ${typeof value} (${inspected})`;
}

const PRIMITIVE_TYPES = [
  'string',
  'function',
  'number',
  'object',
  'Function',
  'Object',
  'boolean',
  'bigint',
  'symbol',
];
const CLASS_NAME = /^([A-Z][a-z0-9]*)+$/;

function listOf(items, singular, plural) {
  if (items.length > 2) return `${plural} ${items.slice(0, -1).join(', ')}, or ${items.at(-1)}`;
  if (items.length === 2) return `${plural} ${items[0]} or ${items[1]}`;
  return `${singular} ${items[0]}`;
}

function invalidArgTypeMessage(name, expected, actual) {
  const wanted = Array.isArray(expected) ? expected : [expected];
  let msg = 'The ';
  if (name.endsWith(' argument')) msg += `${name} `;
  else msg += `"${name}" ${name.includes('.') ? 'property' : 'argument'} `;
  msg += 'must be ';
  const types = [];
  const instances = [];
  const other = [];
  for (const value of wanted) {
    if (PRIMITIVE_TYPES.includes(value)) types.push(value.toLowerCase());
    else if (CLASS_NAME.test(value)) instances.push(value);
    else other.push(value);
  }
  // "object" reads better among the instance names when instances are accepted too.
  if (instances.length > 0 && types.includes('object')) {
    types.splice(types.indexOf('object'), 1);
    instances.push('Object');
  }
  const parts = [];
  if (types.length > 0) parts.push(listOf(types, 'of type', 'one of type'));
  if (instances.length > 0) {
    if (instances.length > 2)
      parts.push(`an instance of ${instances.slice(0, -1).join(', ')}, or ${instances.at(-1)}`);
    else parts.push(`an instance of ${instances.join(' or ')}`);
  }
  if (other.length > 0) {
    if (other.length === 1) parts.push(`${other[0].toLowerCase() !== other[0] ? 'an ' : ''}${other[0]}`);
    else parts.push(listOf(other, '', 'one of'));
  }
  return `${msg}${parts.join(' or ')}. Received ${describeReceived(actual)}`;
}

function addNumericalSeparator(val) {
  let res = '';
  let i = val.length;
  const start = val[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${val.slice(i - 3, i)}${res}`;
  return `${val.slice(0, i)}${res}`;
}

/** Message builders, keyed by code; each returns the message text for its arguments. */
const MESSAGES = {
  ERR_INVALID_ARG_TYPE: [TypeError, invalidArgTypeMessage],
  ERR_INVALID_ARG_VALUE: [
    TypeError,
    (name, value, reason = 'is invalid') => {
      let inspected = lazyInspect(value);
      if (inspected.length > 128) inspected = `${inspected.slice(0, 128)}...`;
      return `The ${name.includes('.') ? 'property' : 'argument'} '${name}' ${reason}. Received ${inspected}`;
    },
  ],
  ERR_OUT_OF_RANGE: [
    RangeError,
    (name, range, input, replaceDefaultBoolean = false) => {
      let msg = replaceDefaultBoolean ? name : `The value of "${name}" is out of range.`;
      let received;
      if (Number.isInteger(input) && Math.abs(input) > 2 ** 32)
        received = addNumericalSeparator(String(input));
      else if (typeof input === 'bigint') {
        received = String(input);
        if (input > 2n ** 32n || input < -(2n ** 32n)) received = addNumericalSeparator(received);
        received += 'n';
      } else received = lazyInspect(input);
      msg += ` It must be ${range}. Received ${received}`;
      return msg;
    },
  ],
  ERR_MISSING_ARGS: [
    TypeError,
    (...args) => {
      const names = args.map((a) => (Array.isArray(a) ? a.map((n) => `"${n}"`).join(' or ') : `"${a}"`));
      let msg = 'The ';
      if (names.length === 1) msg += `${names[0]} argument`;
      else if (names.length === 2) msg += `${names[0]} and ${names[1]} arguments`;
      else msg += `${names.slice(0, -1).join(', ')}, and ${names.at(-1)} arguments`;
      return `${msg} must be specified`;
    },
  ],
  // `err` arrives already inspected (events does it), as in Node.
  ERR_UNHANDLED_ERROR: [
    Error,
    (err) => (err === undefined ? 'Unhandled error.' : `Unhandled error. (${err})`),
  ],
  ERR_INVALID_THIS: [TypeError, (type) => `Value of "this" must be of type ${type}`],
  ERR_INVALID_RETURN_VALUE: [
    TypeError,
    (input, name, value) =>
      `Expected ${input} to be returned from the "${name}" function but got ${describeReceived(value)}.`,
  ],
  ERR_FALSY_VALUE_REJECTION: [Error, () => 'Promise was rejected with falsy value'],
  ERR_AMBIGUOUS_ARGUMENT: [TypeError, (arg, msg) => `The "${arg}" argument is ambiguous. ${msg}`],
  ERR_INVALID_URL: [TypeError, () => 'Invalid URL'],
  ERR_INVALID_TUPLE: [TypeError, (name, value) => `${name} must be an iterable ${value} tuple`],
  ERR_INVALID_URL_SCHEME: [TypeError, (expected) => `The URL must be of scheme ${expected}`],
  ERR_INVALID_FILE_URL_PATH: [TypeError, (msg) => `File URL path ${msg}`],
  ERR_INVALID_FILE_URL_HOST: [
    TypeError,
    (platform) => `File URL host must be "localhost" or empty on ${platform}`,
  ],
  ERR_INVALID_URI: [URIError, () => 'URI malformed'],
  ERR_UNKNOWN_ENCODING: [TypeError, (enc) => `Unknown encoding: ${enc}`],
  ERR_ENCODING_NOT_SUPPORTED: [RangeError, (enc) => `The "${enc}" encoding is not supported`],
  ERR_ENCODING_INVALID_ENCODED_DATA: [
    TypeError,
    (enc) => `The encoded data was not valid for encoding ${enc}`,
  ],
  ERR_INVALID_CHAR: [
    TypeError,
    (name, field) => (field ? `Invalid character in ${name} ["${field}"]` : `Invalid character in ${name}`),
  ],
  ERR_INVALID_STATE: [Error, (msg) => `Invalid state: ${msg}`],
  ERR_ILLEGAL_CONSTRUCTOR: [TypeError, () => 'Illegal constructor'],
  ERR_METHOD_NOT_IMPLEMENTED: [Error, (name) => `The ${name} method is not implemented`],
  ERR_UNKNOWN_SIGNAL: [TypeError, (signal) => `Unknown signal: ${signal}`],
  ERR_BUFFER_OUT_OF_BOUNDS: [
    RangeError,
    (name) =>
      name ? `"${name}" is outside of buffer bounds` : 'Attempt to access memory outside buffer bounds',
  ],
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: [TypeError, (msg) => msg],
  ERR_PARSE_ARGS_UNKNOWN_OPTION: [
    TypeError,
    (option, allowPositionals) => {
      const suggest = allowPositionals
        ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(option)}`
        : '';
      return `Unknown option '${option}'${suggest}`;
    },
  ],
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: [
    TypeError,
    (positional) => `Unexpected argument '${positional}'. This command does not take positional arguments`,
  ],
  ERR_UNSUPPORTED_OPERATION: [Error, (msg) => msg],
  ERR_NOT_SUPPORTED_IN_TABCODE: [Error, (what) => `${what} is not supported in tabcode's Node runtime`],
};

/** `codes.ERR_X(...args)` returns a new error with that code, as `new codes.ERR_X(...)` does in Node. */
const codes = {};
for (const [code, [Base, message]] of Object.entries(MESSAGES)) {
  const build = (...args) => makeNodeError(Base, code, message(...args), build);
  Object.defineProperty(build, 'name', { value: code });
  codes[code] = build;
}

/** Node's AbortError: name 'AbortError', code 'ABORT_ERR', optional `cause`. */
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
    setStackHeader(this, `AbortError: ${message}`);
  }
}

function validateString(value, name) {
  if (typeof value !== 'string') throw codes.ERR_INVALID_ARG_TYPE(name, 'string', value);
}
function validateFunction(value, name) {
  if (typeof value !== 'function') throw codes.ERR_INVALID_ARG_TYPE(name, 'Function', value);
}
function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw codes.ERR_INVALID_ARG_TYPE(name, 'boolean', value);
}
function validateNumber(value, name, min = undefined, max = undefined) {
  if (typeof value !== 'number') throw codes.ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (
    (min != null && value < min) ||
    (max != null && value > max) ||
    ((min != null || max != null) && Number.isNaN(value))
  ) {
    const range = `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`;
    throw codes.ERR_OUT_OF_RANGE(name, range, value);
  }
}
function validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw codes.ERR_INVALID_ARG_TYPE(name, 'number', value);
  if (!Number.isInteger(value)) throw codes.ERR_OUT_OF_RANGE(name, 'an integer', value);
  if (value < min || value > max) throw codes.ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, value);
}
/** Plain options objects: not null, not an array, not a function (Node's default validateObject). */
function validateObject(value, name, { nullable = false, allowArray = false, allowFunction = false } = {}) {
  const ok =
    (nullable || value !== null) &&
    (allowArray || !Array.isArray(value)) &&
    (typeof value === 'object' || (allowFunction && typeof value === 'function'));
  if (!ok) throw codes.ERR_INVALID_ARG_TYPE(name, 'Object', value);
}
function validateArray(value, name, minLength = 0) {
  if (!Array.isArray(value)) throw codes.ERR_INVALID_ARG_TYPE(name, 'Array', value);
  if (value.length < minLength)
    throw codes.ERR_INVALID_ARG_VALUE(name, value, `must be longer than ${minLength}`);
}
function validateOneOf(value, name, oneOf) {
  if (!oneOf.includes(value)) {
    const allowed = oneOf.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
    throw codes.ERR_INVALID_ARG_VALUE(name, value, `must be one of: ${allowed}`);
  }
}
function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw codes.ERR_INVALID_ARG_TYPE(name, 'AbortSignal', signal);
  }
}

/**
 * process.emitWarning when the engine's process has it; otherwise prints what Node prints for an
 * unhandled warning. `warning` is a string or an Error (its name is the warning's type). Never throws.
 */
function emitWarning(warning, type = 'Warning', code = undefined) {
  const proc = globalThis.process;
  try {
    if (typeof proc?.emitWarning === 'function') {
      proc.emitWarning(warning, type, code);
      return;
    }
    const name = typeof warning === 'string' ? type : warning.name;
    const message = typeof warning === 'string' ? warning : warning.message;
    if (name === 'DeprecationWarning' && proc?.noDeprecation) return;
    const hint = name === 'DeprecationWarning' ? 'trace-deprecation' : 'trace-warnings';
    const text = `(node:${proc?.pid ?? 1}) ${code ? `[${code}] ` : ''}${name}: ${message}\n(Use \`node --${hint} ...\` to show where the warning was created)\n`;
    proc?.stderr?.write?.(text);
  } catch {
    // A warning must never break the program that caused it.
  }
}

module.exports = {
  codes,
  emitWarning,
  AbortError,
  makeNodeError,
  setStackHeader,
  describeReceived,
  validateString,
  validateFunction,
  validateBoolean,
  validateNumber,
  validateInteger,
  validateObject,
  validateArray,
  validateOneOf,
  validateAbortSignal,
};
