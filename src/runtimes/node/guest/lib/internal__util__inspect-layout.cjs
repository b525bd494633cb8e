'use strict';
// util.inspect's text layer: quoting and escaping strings, numbers, colours, display widths, and the
// line layout (when entries share a line, when a long array is set out in columns). The rules follow
// Node's observable output: `compact: 3` keeps up to three inner levels on one line if the whole fits
// in `breakLength`; arrays of more than six entries are grouped into aligned columns.

const colors = {
  __proto__: null,
  reset: [0, 0],
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  blink: [5, 25],
  inverse: [7, 27],
  hidden: [8, 28],
  strikethrough: [9, 29],
  doubleunderline: [21, 24],
  black: [30, 39],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  white: [37, 39],
  bgBlack: [40, 49],
  bgRed: [41, 49],
  bgGreen: [42, 49],
  bgYellow: [43, 49],
  bgBlue: [44, 49],
  bgMagenta: [45, 49],
  bgCyan: [46, 49],
  bgWhite: [47, 49],
  framed: [51, 54],
  overlined: [53, 55],
  gray: [90, 39],
  redBright: [91, 39],
  greenBright: [92, 39],
  yellowBright: [93, 39],
  blueBright: [94, 39],
  magentaBright: [95, 39],
  cyanBright: [96, 39],
  whiteBright: [97, 39],
  bgGray: [100, 49],
  bgRedBright: [101, 49],
  bgGreenBright: [102, 49],
  bgYellowBright: [103, 49],
  bgBlueBright: [104, 49],
  bgMagentaBright: [105, 49],
  bgCyanBright: [106, 49],
  bgWhiteBright: [107, 49],
};
// Aliases, non-enumerable as in Node so Object.keys(inspect.colors) lists each colour once.
for (const [alias, target] of [
  ['grey', 'gray'],
  ['blackBright', 'gray'],
  ['bgGrey', 'bgGray'],
  ['bgBlackBright', 'bgGray'],
  ['faint', 'dim'],
  ['crossedout', 'strikethrough'],
  ['strikeThrough', 'strikethrough'],
  ['crossedOut', 'strikethrough'],
  ['conceal', 'hidden'],
  ['swapColors', 'inverse'],
  ['swapcolors', 'inverse'],
  ['doubleUnderline', 'doubleunderline'],
]) {
  Object.defineProperty(colors, alias, {
    get() {
      return this[target];
    },
    set(value) {
      this[target] = value;
    },
    enumerable: false,
    configurable: true,
  });
}

const styles = Object.assign(Object.create(null), {
  special: 'cyan',
  number: 'yellow',
  bigint: 'yellow',
  boolean: 'yellow',
  undefined: 'grey',
  null: 'bold',
  string: 'green',
  symbol: 'green',
  date: 'magenta',
  regexp: 'red',
  module: 'underline',
});

function stylizeNoColor(str) {
  return str;
}

function stylizeWithColor(str, styleType) {
  const style = styles[styleType];
  if (style !== undefined) {
    const color = colors[style];
    if (color !== undefined) return `\u001b[${color[0]}m${str}\u001b[${color[1]}m`;
  }
  return str;
}

// ANSI escape sequences (CSI and OSC forms), as Node's stripVTControlCharacters removes them.
const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control sequences is the point
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

function stripVTControlCharacters(str) {
  if (typeof str !== 'string') {
    throw require('internal/errors').codes.ERR_INVALID_ARG_TYPE('str', 'string', str);
  }
  return str.replace(ANSI, '');
}

function isFullWidth(code) {
  return (
    code >= 0x1100 &&
    (code <= 0x115f ||
      code === 0x2329 ||
      code === 0x232a ||
      (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) ||
      (code >= 0x4e00 && code <= 0xa4c6) ||
      (code >= 0xa960 && code <= 0xa97c) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) ||
      (code >= 0xff01 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1b000 && code <= 0x1b001) ||
      (code >= 0x1f200 && code <= 0x1f251) ||
      (code >= 0x1f300 && code <= 0x1f64f) ||
      (code >= 0x20000 && code <= 0x3fffd))
  );
}

// Combining marks and zero-width characters.
function isZeroWidth(code) {
  return (
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xfe20 && code <= 0xfe2f)
  );
}

/** Columns `str` takes in a terminal: wide East Asian characters count 2, combining marks 0. */
function getStringWidth(str, removeControlChars = true) {
  const text = removeControlChars ? str.replace(ANSI, '') : str;
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || isZeroWidth(code)) continue;
    width += isFullWidth(code) ? 2 : 1;
  }
  return width;
}

const SHORT_ESCAPES = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 92: '\\\\' };
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to escape
const NEEDS_ESCAPE = /[\x00-\x1f\x27\x5c\x7f-\x9f\ud800-\udfff]/;

function hex2(code) {
  return code.toString(16).toUpperCase().padStart(2, '0');
}

/**
 * A string as inspect prints it: single quotes, or double quotes if it holds a single quote and no
 * double quote, or backticks if it holds both (and no backtick or `${`); control characters and lone
 * surrogates escaped.
 */
function strEscape(str) {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes('`') && !str.includes('${')) quote = '`';
  }
  if (!NEEDS_ESCAPE.test(str)) return `${quote}${str}${quote}`;
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const code = str.charCodeAt(i);
    if (code === 39 && quote === "'") out += "\\'";
    else if (SHORT_ESCAPES[code] !== undefined) out += SHORT_ESCAPES[code];
    else if (code < 32 || (code > 126 && code < 160)) out += `\\x${hex2(code)}`;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = str.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += str[i] + str[i + 1];
        i++;
      } else out += `\\u${code.toString(16)}`;
    } else out += str[i];
  }
  return `${quote}${out}${quote}`;
}

function addNumericSeparator(integerString) {
  let result = '';
  let i = integerString.length;
  const start = integerString.startsWith('-') ? 1 : 0;
  for (; i >= start + 4; i -= 3) result = `_${integerString.slice(i - 3, i)}${result}`;
  return i === integerString.length ? integerString : `${integerString.slice(0, i)}${result}`;
}

function addNumericSeparatorEnd(fraction) {
  let result = '';
  let i = 0;
  for (; i < fraction.length - 3; i += 3) result += `${fraction.slice(i, i + 3)}_`;
  return i === 0 ? fraction : `${result}${fraction.slice(i)}`;
}

function formatNumber(fn, number, numericSeparator) {
  if (!numericSeparator) {
    if (Object.is(number, -0)) return fn('-0', 'number');
    return fn(`${number}`, 'number');
  }
  // Node's numericSeparator rules, including their output for exponent forms ("-2e-7" comes out as
  // "-2e-.-2e_-7" in Node 20 and 22); kept identical on purpose.
  const string = String(number);
  if (Math.trunc(number) === number) {
    if (!Number.isFinite(number) || string.includes('e')) return fn(string, 'number');
    return fn(addNumericSeparator(string), 'number');
  }
  if (Number.isNaN(number)) return fn(string, 'number');
  const point = string.indexOf('.');
  return fn(
    `${addNumericSeparator(string.slice(0, point))}.${addNumericSeparatorEnd(string.slice(point + 1))}`,
    'number',
  );
}

function formatBigInt(fn, bigint, numericSeparator) {
  const string = String(bigint);
  if (!numericSeparator) return fn(`${string}n`, 'bigint');
  return fn(`${addNumericSeparator(string)}n`, 'bigint');
}

/** Line width budget at which a string is split at its newlines ("...\n' +\n  '..."). */
const MIN_LINE_WIDTH = 16;

function formatPrimitive(fn, value, ctx) {
  if (typeof value === 'string') {
    let trailer = '';
    let text = value;
    if (text.length > ctx.maxStringLength) {
      const remaining = text.length - ctx.maxStringLength;
      text = text.slice(0, ctx.maxStringLength);
      trailer = `... ${remaining} more character${remaining > 1 ? 's' : ''}`;
    }
    if (
      ctx.compact !== true &&
      text.length > MIN_LINE_WIDTH &&
      text.length > ctx.breakLength - ctx.indentationLvl - 4
    ) {
      const lines = text.split(/(?<=\n)/);
      return (
        lines.map((line) => fn(strEscape(line), 'string')).join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) +
        trailer
      );
    }
    return fn(strEscape(text), 'string') + trailer;
  }
  if (typeof value === 'number') return formatNumber(fn, value, ctx.numericSeparator);
  if (typeof value === 'bigint') return formatBigInt(fn, value, ctx.numericSeparator);
  if (typeof value === 'boolean') return fn(`${value}`, 'boolean');
  if (typeof value === 'undefined') return fn('undefined', 'undefined');
  return fn(Symbol.prototype.toString.call(value), 'symbol');
}

const visibleLength = (ctx, text) => (ctx.colors ? text.replace(ANSI, '').length : text.length);

/**
 * Arrays of more than six entries: several entries per line, in columns whose count depends on the
 * entries' lengths (about square overall, at most 15 columns, at most compact * 4). Numbers are
 * right-aligned, anything else left-aligned.
 */
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  // The "... more items" entry takes no part in the layout.
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = getStringWidth(output[i], ctx.colors);
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (
    actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
    (totalLength / actualMax > 5 || maxLength <= 6)
  ) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    const grouped = [];
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let line = '';
      let j = i;
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
        line += padStart ? `${output[j]}, `.padStart(padding, ' ') : `${output[j]}, `.padEnd(padding, ' ');
      }
      if (padStart) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
        line += output[j].padStart(padding, ' ');
      } else {
        line += output[j];
      }
      grouped.push(line);
    }
    if (ctx.maxArrayLength < output.length) grouped.push(output[outputLength]);
    return grouped;
  }
  return output;
}

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (let i = 0; i < output.length; i++) {
    totalLength += visibleLength(ctx, output[i]);
    if (totalLength > ctx.breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

/** Joins formatted entries into `{ a, b }` on one line, or one entry per line, indented. */
function reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      const entries = output.length;
      if (isArrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
      // ctx.currentDepth is the level of the object formatted last; up to `compact` inner levels may
      // share the line.
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
        }
      }
    }
    const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
    return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
  }
  if (isBelowBreakLength(ctx, output, 0, base)) {
    return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ${braces[1]}`;
  }
  const indentation = ' '.repeat(ctx.indentationLvl);
  const ln = base === '' && braces[0].length === 1 ? ' ' : `${base ? ` ${base}` : ''}\n${indentation}  `;
  return `${braces[0]}${ln}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
}

module.exports = {
  colors,
  styles,
  stylizeNoColor,
  stylizeWithColor,
  stripVTControlCharacters,
  getStringWidth,
  strEscape,
  formatNumber,
  formatBigInt,
  formatPrimitive,
  reduceToSingleString,
};
