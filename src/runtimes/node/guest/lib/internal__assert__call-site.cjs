'use strict';
// For assert.ok(false) without a message, Node quotes the failing call from the source file:
// "The expression evaluated to a falsy value:\n\n  assert.ok(x === 1)\n". This finds that call from the
// caller's stack frame (file, line, column) and the file's text. QuickJS reports a column somewhere
// inside the call, so the call is found as the nearest enclosing `name(...)` on that line whose name
// looks like an assertion. Returns undefined when the source cannot be read (no fs, no file).

const FRAME = /\(?((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)\)?$/;
/** Lines above the reported one searched for the start of a multi-line call. */
const LOOKBACK_LINES = 10;
const CALL_START = /([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(/g;

function callerLocation(fn) {
  const holder = {};
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 1;
    Error.captureStackTrace(holder, fn);
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = limit;
  }
  const line = String(holder.stack ?? '')
    .split('\n')
    .find((l) => /^\s+at /.test(l));
  const match = line && FRAME.exec(line.trim());
  if (!match) return undefined;
  let file = match[1];
  if (file.startsWith('file://')) file = decodeURIComponent(file.slice(7));
  return { file, line: Number(match[2]) - 1, column: Number(match[3]) - 1 };
}

/** Index of the ')' closing the '(' at `open`, skipping strings and nested brackets; -1 if none. */
function matchingParen(text, open) {
  let depth = 0;
  let quote = null;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return ch === ')' ? i : -1;
    }
  }
  return -1;
}

function normalizeIndentation(text, column) {
  if (!text.includes('\n')) return text;
  const [first, ...rest] = text.split('\n');
  let out = first;
  for (const frame of rest) {
    let pos = 0;
    while (pos < column && (frame[pos] === ' ' || frame[pos] === '\t')) pos++;
    out += `\n  ${frame.slice(pos)}`;
  }
  return out;
}

/** The source text of the call that invoked `fn` (an assert function), or undefined. */
function failingCallSource(fn) {
  const where = callerLocation(fn);
  if (!where) return undefined;
  let source;
  try {
    source = require('node:fs').readFileSync(where.file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = source.split('\n');
  const lineText = lines[where.line];
  if (lineText === undefined) return undefined;
  const offsetOf = (line) => lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
  const at = offsetOf(where.line) + Math.min(where.column, lineText.length);
  // The reported position may be on a later line of a call that spans several.
  const firstLine = Math.max(0, where.line - LOOKBACK_LINES);
  const windowStart = offsetOf(firstLine);
  const windowText = source.slice(windowStart, offsetOf(where.line) + lineText.length);
  const candidates = [];
  CALL_START.lastIndex = 0;
  for (let m = CALL_START.exec(windowText); m !== null; m = CALL_START.exec(windowText)) {
    const start = windowStart + m.index;
    const close = matchingParen(source, start + m[0].length - 1);
    if (close === -1 || start > at || close + 1 < at) continue;
    candidates.push({ name: m[1].replace(/\s+/g, ''), start, close });
  }
  if (candidates.length === 0) return undefined;
  const assertion = candidates.filter((c) => /(^|\.)ok$|assert/i.test(c.name)).at(-1);
  const chosen = assertion ?? candidates.at(-1);
  const column = chosen.start - source.lastIndexOf('\n', chosen.start - 1) - 1;
  return normalizeIndentation(source.slice(chosen.start, chosen.close + 1), column);
}

module.exports = { failingCallSource };
