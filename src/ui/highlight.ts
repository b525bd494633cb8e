/**
 * Syntax highlighting (lazy-loaded: import it with `import()`): highlight.js grammars through lowlight,
 * which returns a syntax tree, never HTML, so the page renders tokens as React elements.
 */
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';

const lowlight = createLowlight({
  bash,
  css,
  diff,
  javascript,
  json,
  markdown,
  python,
  typescript,
  xml,
  yaml,
});
lowlight.registerAlias({ bash: ['sh', 'shell', 'zsh', 'console'], xml: ['html', 'svg'], json: ['jsonc'] });

/**
 * Text longer than this is shown plain: it bounds the highlighter's time (in its worker) and the number
 * of elements a view gets (the file viewer shows at most this much).
 */
export const MAX_HIGHLIGHT_CHARS = 200_000;

export interface HastText {
  type: 'text';
  value: string;
}
export interface HastElement {
  type: 'element';
  tagName: string;
  properties?: { className?: unknown };
  children: HastNode[];
}
export type HastNode = HastText | HastElement | { type: 'comment' | 'doctype' };

/** The token tree of `code` in `language`, or null for an unknown language or an oversized text. */
export function highlightTree(code: string, language: string | undefined): HastNode[] | null {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return null;
  const lang = language.toLowerCase();
  if (!lowlight.registered(lang)) return null;
  try {
    return lowlight.highlight(lang, code).children as HastNode[];
  } catch {
    return null;
  }
}
