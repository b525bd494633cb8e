/**
 * Bash rule content matching. A rule's content is one of:
 * - an exact command: `npm test` matches `npm test` only;
 * - a legacy prefix: `npm test:*` matches `npm test` and `npm test <anything>` (word boundary);
 * - a wildcard: `*` matches any text (spaces included), and a trailing ` *` also matches nothing, so
 *   `git *` matches `git`, `git status` and `git push --force`. `\*` is a literal star.
 * A command is matched as its words joined by single spaces (quotes removed). Words only known at run
 * time make a match uncertain: `maybe` means some value of them would match.
 */
import type { ShellWord } from './types.ts';

export type RuleMatch = 'yes' | 'maybe' | 'no';

const STAR = Symbol('star');
type Token = string | typeof STAR;

export type ShellPattern =
  | { kind: 'exact'; text: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'wildcard'; tokens: Token[]; optionalTail: boolean };

const squash = (s: string): string => s.trim().replace(/\s+/g, ' ');

const cache = new Map<string, ShellPattern>();

/** Compiles a Bash rule's content (cached). Never throws. */
export function compileShellPattern(content: string): ShellPattern {
  const hit = cache.get(content);
  if (hit) return hit;
  const text = squash(content);
  let pattern: ShellPattern;
  if (text.endsWith(':*')) pattern = { kind: 'prefix', prefix: squash(text.slice(0, -2)) };
  else {
    const tokens: Token[] = [];
    let stars = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\' && (text[i + 1] === '*' || text[i + 1] === '\\')) {
        tokens.push(text[++i]);
      } else if (c === '*') {
        tokens.push(STAR);
        stars++;
      } else tokens.push(c);
    }
    const n = tokens.length;
    pattern =
      stars === 0
        ? { kind: 'exact', text: tokens.join('') }
        : {
            kind: 'wildcard',
            tokens,
            optionalTail: n >= 2 && tokens[n - 1] === STAR && tokens[n - 2] === ' ',
          };
  }
  if (cache.size > 500) cache.clear();
  cache.set(content, pattern);
  return pattern;
}

/** States of the wildcard automaton after reading `text` from `start`. */
function advance(tokens: Token[], start: Set<number>, text: string): Set<number> {
  const closure = (set: Set<number>): Set<number> => {
    for (const i of set) if (tokens[i] === STAR) set.add(i + 1);
    return set;
  };
  let states = closure(new Set(start));
  for (const c of text) {
    const next = new Set<number>();
    for (const i of states) {
      if (tokens[i] === STAR) next.add(i);
      else if (tokens[i] === c) next.add(i + 1);
    }
    states = closure(next);
    if (states.size === 0) break;
  }
  return states;
}

function accepts(p: Extract<ShellPattern, { kind: 'wildcard' }>, states: Set<number>): boolean {
  const n = p.tokens.length;
  return states.has(n) || (p.optionalTail && states.has(n - 2));
}

/** True when the whole command text matches. */
export function patternMatchesText(pattern: ShellPattern, text: string): boolean {
  switch (pattern.kind) {
    case 'exact':
      return text === pattern.text;
    case 'prefix':
      return text === pattern.prefix || text.startsWith(`${pattern.prefix} `);
    case 'wildcard':
      return accepts(pattern, advance(pattern.tokens, new Set([0]), text));
  }
}

/**
 * Whether a command whose text starts with `prefix` (and continues with text only known at run time)
 * matches: 'yes' whatever follows, 'maybe' for some continuation, else 'no'.
 */
function prefixMatch(pattern: ShellPattern, prefix: string): RuleMatch {
  switch (pattern.kind) {
    case 'exact':
      return pattern.text.startsWith(prefix) ? 'maybe' : 'no';
    case 'prefix': {
      const p = pattern.prefix;
      if (prefix.startsWith(`${p} `)) return 'yes';
      return p.startsWith(prefix) || `${p} `.startsWith(prefix) ? 'maybe' : 'no';
    }
    case 'wildcard': {
      const states = advance(pattern.tokens, new Set([0]), prefix);
      if (states.size === 0) return 'no';
      const n = pattern.tokens.length;
      for (const i of states) {
        if (i < n && pattern.tokens.slice(i).every((t) => t === STAR)) return 'yes';
      }
      return 'maybe';
    }
  }
}

/**
 * Matches one form of a command (its words) against a Bash rule's content. Static words: 'yes' or
 * 'no'. With run-time words: 'yes' only when every value matches, 'maybe' when some value could.
 */
export function matchShellRule(content: string, words: readonly ShellWord[]): RuleMatch {
  const pattern = compileShellPattern(content);
  const k = words.findIndex((w) => w.dynamic);
  if (k < 0) return patternMatchesText(pattern, words.map((w) => w.text).join(' ')) ? 'yes' : 'no';
  const before = words.slice(0, k).map((w) => w.text);
  const prefix = before.length > 0 ? `${before.join(' ')} ` : '';
  const result = prefixMatch(pattern, prefix);
  if (result !== 'no') return result;
  // The run-time words may expand to nothing.
  const staticText = words
    .filter((w) => !w.dynamic)
    .map((w) => w.text)
    .join(' ');
  return patternMatchesText(pattern, staticText) ? 'maybe' : 'no';
}

/** The strongest of several results. */
export function strongest(results: Iterable<RuleMatch>): RuleMatch {
  let best: RuleMatch = 'no';
  for (const r of results) {
    if (r === 'yes') return 'yes';
    if (r === 'maybe') best = 'maybe';
  }
  return best;
}
