/**
 * Highlighted code in pieces the page can show one at a time (issue 17: no task over 50 ms). The
 * highlighter's token tree of a large file is hundreds of thousands of nodes; turned into elements in
 * one render it blocked the page for seconds (190 kB of JavaScript: 0.6 s to highlight, 5.3 s to
 * commit). Here the tree is cut into chunks of about CHUNK_CHARS characters of text each, at line ends
 * (after the last line end that fits; a longer line runs on to its end, within LONG_LINE_CHUNKS times
 * the size), and each chunk is a compact list of operations (texts and span
 * opens/closes) that crosses a worker boundary cheaply. An element cut by a chunk boundary is closed at
 * the end of one chunk and opened again at the start of the next, so every chunk is self-contained and
 * the texts of all chunks, in order, are the code exactly.
 */
import type { HastNode } from './highlight.ts';

/** Characters of text per chunk (a chunk is rendered in its own task). */
export const CHUNK_CHARS = 4_000;
/**
 * A chunk that meets no line end within its size runs on to the next line end, up to this many times
 * its size; a longer line is cut there.
 */
export const LONG_LINE_CHUNKS = 4;

/**
 * One piece of highlighted code: `ops` are texts (strings) and numbers: k > 0 opens a span whose class
 * is `classes[k - 1]` (possibly ''), 0 closes the innermost open span.
 */
export interface Chunk {
  classes: string[];
  ops: (string | number)[];
}

/** Highlighted code: its chunks, and where each ends in the code (exclusive offsets, increasing). */
export interface Highlighted {
  chunks: Chunk[];
  ends: number[];
}

const classOf = (n: Extract<HastNode, { type: 'element' }>): string => {
  const cls = n.properties?.className;
  return Array.isArray(cls) ? cls.join(' ') : typeof cls === 'string' ? cls : '';
};

/** Where to cut `text` to keep at most `room` characters, never between the halves of a surrogate pair. */
function cutAt(text: string, room: number): number {
  const code = text.charCodeAt(room - 1);
  return room > 1 && code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
}

/** The chunks of a token tree (see the module comment). */
export function chunkTree(nodes: readonly HastNode[], maxChars = CHUNK_CHARS): Highlighted {
  const limit = Math.max(2, Math.floor(maxChars));
  const chunks: Chunk[] = [];
  const ends: number[] = [];
  const stack: string[] = [];
  let classes: string[] = [];
  let index = new Map<string, number>();
  let ops: (string | number)[] = [];
  let size = 0;
  let offset = 0;
  /** The chunk's last line end so far: its ops before it, the offset after it, the spans open there. */
  let mark: { ops: number; offset: number; stack: string[] } | undefined;

  const open = (cls: string) => {
    let k = index.get(cls);
    if (k === undefined) {
      classes.push(cls);
      k = classes.length;
      index.set(cls, k);
    }
    ops.push(k);
  };
  const flush = () => {
    for (let i = 0; i < stack.length; i++) ops.push(0);
    chunks.push({ classes, ops });
    ends.push(offset);
    classes = [];
    index = new Map();
    ops = [];
    size = 0;
    mark = undefined;
    for (const cls of stack) open(cls);
  };
  /** Ends the chunk at its last line end; what came after starts the next one. */
  const cutAtMark = (m: NonNullable<typeof mark>) => {
    const tail = ops.slice(m.ops);
    const tailClasses = classes;
    ops = ops.slice(0, m.ops);
    for (let i = 0; i < m.stack.length; i++) ops.push(0);
    chunks.push({ classes, ops });
    ends.push(m.offset);
    classes = [];
    index = new Map();
    ops = [];
    size = 0;
    mark = undefined;
    for (const cls of m.stack) open(cls);
    for (const op of tail) {
      if (typeof op === 'string') {
        ops.push(op);
        size += op.length;
      } else if (op > 0) open(tailClasses[op - 1]);
      else ops.push(0);
    }
  };
  const push = (piece: string) => {
    ops.push(piece);
    size += piece.length;
    offset += piece.length;
  };
  const put = (piece: string) => {
    const j = piece.lastIndexOf('\n');
    if (j < 0) {
      push(piece);
      return;
    }
    push(piece.slice(0, j + 1));
    mark = { ops: ops.length, offset, stack: [...stack] };
    if (j < piece.length - 1) push(piece.slice(j + 1));
  };
  const text = (value: string) => {
    let rest = value;
    while (rest.length > 0) {
      const room = limit - size;
      if (rest.length <= room) {
        put(rest);
        return;
      }
      // Full: cut after the last line end that fits, so chunks hold whole lines (the page lays out
      // each chunk's lines on its own, ./HighlightedCode.tsx).
      const nl = rest.lastIndexOf('\n', room - 1);
      if (nl >= 0) {
        put(rest.slice(0, nl + 1));
        rest = rest.slice(nl + 1);
        flush();
        continue;
      }
      // The chunk had a line end: it ends there, and the rest of its last line starts the next one.
      if (mark) {
        cutAtMark(mark);
        continue;
      }
      // No line end in the chunk yet: it runs on to the next one, up to LONG_LINE_CHUNKS times the size.
      const hardRoom = limit * LONG_LINE_CHUNKS - size;
      const next = rest.indexOf('\n');
      if (next >= 0 && next < hardRoom) {
        put(rest.slice(0, next + 1));
        rest = rest.slice(next + 1);
        flush();
        continue;
      }
      if (rest.length <= hardRoom) {
        put(rest);
        return;
      }
      // A line longer than that is cut where the cap falls.
      const cut = cutAt(rest, hardRoom);
      put(rest.slice(0, cut));
      rest = rest.slice(cut);
      flush();
    }
  };
  const walk = (list: readonly HastNode[]) => {
    for (const n of list) {
      if (n.type === 'text') text(n.value);
      else if (n.type === 'element') {
        const cls = classOf(n);
        stack.push(cls);
        open(cls);
        walk(n.children);
        stack.pop();
        ops.push(0);
      }
    }
  };
  walk(nodes);
  if (size > 0) flush();
  return { chunks, ends };
}

/** The text of a chunk (its strings joined). */
export function chunkText(chunk: Chunk): string {
  let out = '';
  for (const op of chunk.ops) if (typeof op === 'string') out += op;
  return out;
}
