/**
 * Highlighted code in pieces the page can show one at a time (issue 17: no task over 50 ms). The
 * highlighter's token tree of a large file is hundreds of thousands of nodes; turned into elements in
 * one render it blocked the page for seconds (190 kB of JavaScript: 0.6 s to highlight, 5.3 s to
 * commit). Here the tree is cut into chunks of about CHUNK_CHARS characters of text each, at token
 * boundaries where a token fits, and each chunk is a compact list of operations (texts and span
 * opens/closes) that crosses a worker boundary cheaply. An element cut by a chunk boundary is closed at
 * the end of one chunk and opened again at the start of the next, so every chunk is self-contained and
 * the texts of all chunks, in order, are the code exactly.
 */
import type { HastNode } from './highlight.ts';

/** Characters of text per chunk (a chunk is rendered in its own task). */
export const CHUNK_CHARS = 4_000;

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
    for (const cls of stack) open(cls);
  };
  const text = (value: string) => {
    let rest = value;
    while (rest.length > 0) {
      const room = limit - size;
      if (rest.length <= room) {
        ops.push(rest);
        size += rest.length;
        offset += rest.length;
        return;
      }
      // A token that fits in a chunk of its own starts the next chunk; a longer one is cut.
      if (size > 0 && rest.length <= limit) {
        flush();
        continue;
      }
      const cut = cutAt(rest, room);
      ops.push(rest.slice(0, cut));
      size += cut;
      offset += cut;
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
