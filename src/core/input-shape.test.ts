/**
 * The depth check of a streamed tool input's JSON (input-shape.ts) skips strings by jumping to their
 * next unescaped quote: it must count exactly the brackets a character-by-character scan counts, for
 * strings full of backslashes, quotes and brackets.
 */
import { describe, expect, it } from 'vitest';
import { toolInputJsonProblem } from './input-shape.ts';

/** The deepest nesting of `json`'s brackets outside strings, one character at a time (the reference). */
function deepest(json: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}

const PIECES = ['\\', '\\\\', '"', '{', '[', ']', '}', 'a', '\\"', '\\\\"', 'ü'];

describe('the depth check of a tool input', () => {
  it('counts what a character scan counts, on 3,000 generated inputs with hostile strings', () => {
    let x = 7;
    const rnd = (k: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % k;
    };
    const str = () => Array.from({ length: rnd(8) }, () => PIECES[rnd(PIECES.length)]).join('');
    const value = (depth: number): unknown => {
      const k = rnd(depth > 6 ? 2 : 4);
      if (k === 0) return str();
      if (k === 1) return rnd(9);
      if (k === 2) return Array.from({ length: rnd(3) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rnd(3) }, () => [str(), value(depth + 1)]));
    };
    for (let n = 0; n < 3_000; n++) {
      const json = JSON.stringify({ input: value(0) });
      const max = deepest(json);
      const limits = { maxDepth: Math.max(1, max - rnd(2)), maxChars: 1e9, maxValues: 1e9 };
      expect(toolInputJsonProblem(json, limits) === null, json).toBe(max <= limits.maxDepth);
    }
  });

  it('a 2 MB string of brackets and escaped quotes is no nesting at all', () => {
    const json = JSON.stringify({ content: '[{"\\'.repeat(500_000) });
    expect(toolInputJsonProblem(json, { maxDepth: 2, maxChars: 1e9, maxValues: 1e9 })).toBeNull();
    expect(toolInputJsonProblem(`[[[${json}]]]`, { maxDepth: 3, maxChars: 1e9, maxValues: 1e9 })).toMatch(
      /nested more than 3 levels/,
    );
  });
});
