/**
 * Highlighted code cut into chunks (highlight-chunks.ts) from the real highlighter's trees: the texts
 * of the chunks are the code exactly, every chunk is balanced and within its size, and an element cut
 * by a boundary is opened again with its classes.
 */
import { describe, expect, it } from 'vitest';
import { highlightTree } from './highlight.ts';
import { type Chunk, chunkText, chunkTree, LONG_LINE_CHUNKS } from './highlight-chunks.ts';

const js = Array.from(
  { length: 400 },
  (_, i) => `/* block ${i}\n   comment */ export const v${i} = \`tpl ${i}\n\${i * 7}\`; // line ${i} "s"`,
).join('\n');

/** Balanced: no close without an open, nothing open at the end; classes the table has. */
function balanced(c: Chunk): boolean {
  let depth = 0;
  for (const op of c.ops) {
    if (typeof op === 'string') continue;
    if (op === 0) depth--;
    else if (op > c.classes.length) return false;
    else depth++;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** The classes open around each character of the chunks, in order (what a reader of the page sees). */
function classesPerChar(chunks: Chunk[]): string[] {
  const out: string[] = [];
  for (const c of chunks) {
    const stack: string[] = [];
    for (const op of c.ops) {
      if (typeof op === 'string') for (const _ of op) out.push(stack.join('>'));
      else if (op === 0) stack.pop();
      else stack.push(c.classes[op - 1]);
    }
  }
  return out;
}

describe('chunkTree', () => {
  const tree = highlightTree(js, 'javascript');

  it('keeps the code exactly, in balanced chunks of whole lines within the size, ends at each chunk’s end', () => {
    expect(tree).not.toBeNull();
    const { chunks, ends } = chunkTree(tree ?? [], 500);
    expect(chunks.length).toBeGreaterThan(js.length / 500);
    expect(chunks.map(chunkText).join('')).toBe(js);
    let at = 0;
    chunks.forEach((c, i) => {
      const t = chunkText(c);
      expect(t.length).toBeGreaterThan(0);
      // Every line is far shorter than a chunk: each chunk is whole lines, the last one excepted.
      expect(t.length).toBeLessThanOrEqual(500);
      if (i < chunks.length - 1) expect(t.endsWith('\n')).toBe(true);
      expect(balanced(c)).toBe(true);
      at += t.length;
      expect(ends[i]).toBe(at);
    });
    expect(ends.at(-1)).toBe(js.length);
  });

  it('gives every character the classes it has in one chunk, whatever the chunk size', () => {
    const whole = classesPerChar(chunkTree(tree ?? [], 1e9).chunks);
    expect(whole).toHaveLength(js.length);
    // Multi-line comments and template strings are cut by small chunks, and opened again.
    expect(whole.some((c) => c.includes('hljs-comment'))).toBe(true);
    for (const size of [2, 37, 500, 4000])
      expect(classesPerChar(chunkTree(tree ?? [], size).chunks)).toEqual(whole);
  });

  it('runs a chunk on to its line end; cuts a longer line, never between the halves of a surrogate pair', () => {
    const runOn = `${'x'.repeat(150)}\n${'y'.repeat(30)}\n`;
    expect(chunkTree(highlightTree(runOn, 'javascript') ?? [], 100).chunks.map(chunkText)).toEqual([
      `${'x'.repeat(150)}\n`,
      `${'y'.repeat(30)}\n`,
    ]);
    const long = `const s = "${'😀'.repeat(3000)}";`;
    const { chunks } = chunkTree(highlightTree(long, 'javascript') ?? [], 101);
    const texts = chunks.map(chunkText);
    expect(texts.join('')).toBe(long);
    expect(texts.length).toBeGreaterThan(long.length / (101 * LONG_LINE_CHUNKS));
    for (const t of texts) {
      expect(t.length).toBeLessThanOrEqual(101 * LONG_LINE_CHUNKS);
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(t)).toBe(false);
    }
  });

  it('gives no chunk for no code', () => {
    expect(chunkTree(highlightTree('', 'javascript') ?? [])).toEqual({ chunks: [], ends: [] });
  });
});
