'use strict';
// util.inspect's "base" texts: how a function, class, error (with its stack, cause frames and name
// fixes) and boxed primitive is announced before any of its properties, and the constructor/tag
// prefix ("Foo [Tag] ", "[Object: null prototype] ") shared by all kinds of objects.

const types = require('node:util/types');
const { formatPrimitive, stylizeNoColor } = require('internal/util/inspect-layout');

const CLASS_SOURCE = /^(\s+[^(]*?)\s*{/;

function isError(value) {
  return types.isNativeError(value) || value instanceof Error;
}

function getPrefix(ctorName, tag, fallback, size = '') {
  if (ctorName === null) {
    if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
    return `[${fallback}${size}: null prototype] `;
  }
  if (tag !== '' && ctorName !== tag) return `${ctorName}${size} [${tag}] `;
  return `${ctorName}${size} `;
}

function getFunctionBase(value, ctorName, tag) {
  const source = Function.prototype.toString.call(value);
  if (source.startsWith('class') && source.endsWith('}')) {
    const body = source.slice(5, -1);
    const brace = body.indexOf('{');
    if (brace !== -1 && (!body.slice(0, brace).includes('(') || CLASS_SOURCE.test(body))) {
      return getClassBase(value, ctorName, tag);
    }
  }
  let type = 'Function';
  if (types.isGeneratorFunction(value)) type = `Generator${type}`;
  if (types.isAsyncFunction(value)) type = `Async${type}`;
  let base = `[${type}`;
  if (ctorName === null) base += ' (null prototype)';
  if (value.name === '') base += ' (anonymous)';
  else base += `: ${value.name}`;
  base += ']';
  if (ctorName !== type && ctorName !== null) base += ` ${ctorName}`;
  if (tag !== '' && ctorName !== tag) base += ` [${tag}]`;
  return base;
}

function getClassBase(value, ctorName, tag) {
  const name = (Object.hasOwn(value, 'name') && value.name) || '(anonymous)';
  let base = `class ${name}`;
  if (ctorName !== 'Function' && ctorName !== null) base += ` [${ctorName}]`;
  if (tag !== '' && ctorName !== tag) base += ` [${tag}]`;
  if (ctorName !== null) {
    const superName = Object.getPrototypeOf(value).name;
    if (superName) base += ` extends ${superName}`;
  } else {
    base += ' extends [null prototype]';
  }
  return `[${base}]`;
}

const STACK_FRAME_LINE = /^\s+at\s/;

/** An error's stack with its "Name: message" line; QuickJS records the frames only. */
function getStackString(err) {
  let stack;
  try {
    stack = err.stack;
  } catch {
    stack = undefined;
  }
  const header = () => {
    try {
      return Error.prototype.toString.call(err);
    } catch {
      return 'Error';
    }
  };
  if (!stack) return header();
  stack = String(stack);
  if (STACK_FRAME_LINE.test(stack)) stack = `${header()}\n${stack}`;
  return stack.replace(/\n+$/, '');
}

function improveStack(stack, ctorName, name, tag) {
  let len = name.length;
  if (
    ctorName === null ||
    (name.endsWith('Error') &&
      stack.startsWith(name) &&
      (stack.length === len || stack[len] === ':' || stack[len] === '\n'))
  ) {
    let fallback = 'Error';
    if (ctorName === null) {
      const start =
        /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) || /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
      fallback = start?.[1] || '';
      len = fallback.length;
      fallback ||= 'Error';
    }
    const prefix = getPrefix(ctorName, tag, fallback).slice(0, -1);
    if (name !== prefix) {
      if (prefix.includes(name)) {
        stack = len === 0 ? `${prefix}: ${stack}` : `${prefix}${stack.slice(len)}`;
      } else {
        stack = `${prefix} [${name}]${stack.slice(len)}`;
      }
    }
  }
  return stack;
}

function identicalSequenceRange(a, b) {
  for (let i = 0; i < a.length - 3; i++) {
    const pos = b.indexOf(a[i]);
    if (pos !== -1) {
      const rest = b.length - pos;
      if (rest > 3) {
        let len = 1;
        const maxLen = Math.min(a.length - i, rest);
        while (maxLen > len && a[i + len] === b[pos + len]) len++;
        if (len > 3) return { len, offset: i };
      }
    }
  }
  return { len: 0, offset: 0 };
}

function getStackFrames(ctx, err, frameText) {
  const frames = frameText.split('\n');
  let cause;
  try {
    cause = err.cause;
  } catch {
    cause = undefined;
  }
  if (cause != null && isError(cause)) {
    const causeStack = getStackString(cause);
    const causeStart = causeStack.indexOf('\n    at');
    if (causeStart !== -1) {
      const { len, offset } = identicalSequenceRange(frames, causeStack.slice(causeStart + 1).split('\n'));
      if (len > 0) {
        const skipped = len - 2;
        frames.splice(
          offset + 1,
          skipped,
          ctx.stylize(`    ... ${skipped} lines matching cause stack trace ...`, 'undefined'),
        );
      }
    }
  }
  return frames;
}

function stackIncludes(stack, part) {
  try {
    return stack.includes(part);
  } catch {
    return false;
  }
}

function formatError(err, ctorName, tag, ctx, keys) {
  const name = err.name != null ? String(err.name) : 'Error';
  let stack = getStackString(err);
  if (!ctx.showHidden && keys.length !== 0) {
    for (const key of ['name', 'message', 'stack']) {
      const index = keys.indexOf(key);
      if (index !== -1 && stackIncludes(stack, err[key])) keys.splice(index, 1);
    }
  }
  if ('cause' in err && !keys.includes('cause')) keys.push('cause');
  if (Array.isArray(err.errors) && !keys.includes('errors')) keys.push('errors');
  stack = improveStack(stack, ctorName, name, tag);
  let pos = (err.message && stack.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  const stackStart = stack.indexOf('\n    at', pos);
  if (stackStart === -1) {
    stack = `[${stack}]`;
  } else {
    const lines = getStackFrames(ctx, err, stack.slice(stackStart + 1));
    stack = `${stack.slice(0, stackStart)}\n${lines.join('\n')}`;
  }
  if (ctx.indentationLvl !== 0) stack = stack.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
  return stack;
}

function getBoxedBase(value, ctx, keys, ctorName, tag) {
  let type;
  let primitive;
  if (types.isNumberObject(value)) [type, primitive] = ['Number', Number.prototype.valueOf.call(value)];
  else if (types.isStringObject(value)) {
    [type, primitive] = ['String', String.prototype.valueOf.call(value)];
    keys.splice(0, primitive.length);
  } else if (types.isBooleanObject(value))
    [type, primitive] = ['Boolean', Boolean.prototype.valueOf.call(value)];
  else if (types.isBigIntObject(value)) [type, primitive] = ['BigInt', BigInt.prototype.valueOf.call(value)];
  else [type, primitive] = ['Symbol', Symbol.prototype.valueOf.call(value)];
  let base = `[${type}`;
  if (type !== ctorName) base += ctorName === null ? ' (null prototype)' : ` (${ctorName})`;
  base += `: ${formatPrimitive(stylizeNoColor, primitive, ctx)}]`;
  if (tag !== '' && tag !== ctorName) base += ` [${tag}]`;
  if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
  return ctx.stylize(base, type.toLowerCase());
}

module.exports = { isError, getPrefix, getFunctionBase, getStackString, formatError, getBoxedBase };
