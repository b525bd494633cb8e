/**
 * Code with syntax highlighting. The grammar module loads on first use; until then (and for unknown
 * languages) the code shows plain. Tokens are React elements: code is never parsed as HTML.
 */
import { type ReactNode, useEffect, useState } from 'react';
import { yieldToBrowser } from '../agent/main-thread-yield.ts';
import type { HastNode } from './highlight.ts';
import { Lru } from './lru.ts';

type HighlightModule = typeof import('./highlight.ts');
let loaded: HighlightModule | undefined;
let loading: Promise<HighlightModule> | undefined;

function loadHighlighter(): Promise<HighlightModule> {
  loading ??= import('./highlight.ts').then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** Highlighted code as React nodes (immutable, so reusable): a remounted row does not highlight again. */
const highlighted = new Lru<string, ReactNode[] | null>(500);

const keyOf = (code: string, language: string) => `${language}\u0000${code}`;

function highlightNodes(m: HighlightModule, code: string, language: string): ReactNode[] | null {
  const key = keyOf(code, language);
  const hit = highlighted.get(key);
  if (hit !== undefined) return hit;
  const nodes = toReact(m.highlightTree(code, language));
  highlighted.set(key, nodes);
  return nodes;
}

/**
 * Highlighting waiting for its turn, one job per task: a render that mounts many code views (a turn of
 * four Writes) would otherwise highlight them all in its own task (150 ms in Chromium, issue 17).
 */
const queue: Array<() => void> = [];
let draining = false;

function schedule(job: () => void): void {
  queue.push(job);
  if (draining) return;
  draining = true;
  void (async () => {
    while (queue.length > 0) {
      await yieldToBrowser();
      queue.shift()?.();
    }
    draining = false;
  })();
}

/** The highlighted tokens of `code`, or null while the grammar loads or when there is none. */
export function useHighlight(code: string, language: string | undefined): ReactNode[] | null {
  // Highlighted at once only when it was before (a remounted row does not flash plain).
  const [tree, setTree] = useState<{ code: string; language?: string; nodes: ReactNode[] | null } | null>(
    () => {
      const hit = loaded && language ? highlighted.get(keyOf(code, language)) : undefined;
      return hit !== undefined ? { code, language, nodes: hit } : null;
    },
  );
  useEffect(() => {
    if (!language) return;
    if (tree && tree.code === code && tree.language === language) return;
    let cancelled = false;
    void loadHighlighter().then((m) =>
      schedule(() => {
        if (!cancelled) setTree({ code, language, nodes: highlightNodes(m, code, language) });
      }),
    );
    return () => {
      cancelled = true;
    };
  }, [code, language, tree]);
  return tree && tree.code === code && tree.language === language ? tree.nodes : null;
}

function toReact(nodes: HastNode[] | null): ReactNode[] | null {
  if (!nodes) return null;
  return nodes.map((n, i) => node(n, i));
}

function node(n: HastNode, key: number): ReactNode {
  if (n.type === 'text') return n.value;
  if (n.type !== 'element') return null;
  const cls = n.properties?.className;
  return (
    <span key={key} className={Array.isArray(cls) ? cls.join(' ') : undefined}>
      {n.children.map((c, i) => node(c, i))}
    </span>
  );
}

/** A `<code>` element with highlighting once available. */
export function HighlightedCode({ code, language }: { code: string; language?: string }) {
  const nodes = useHighlight(code, language);
  return (
    <code
      className={`hljs${language ? ` language-${language}` : ''}`}
      data-highlighted={nodes ? 'yes' : 'no'}
    >
      {nodes ?? code}
    </code>
  );
}
