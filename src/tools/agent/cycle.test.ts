/**
 * The cycle Claude Code breaks with a lazy import: Agent (and forked Skill) → the loop → the tool pool
 * → Agent. Read from the sources themselves: the static import graph (type-only imports are erased and
 * do not count) of src/core and src/tools has no cycle, nothing the registry imports statically reaches
 * the loop, and Agent and Skill reach it only through a dynamic `import()` of run-subagent.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../..');

interface Edges {
  static: string[];
  dynamic: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Static and dynamic relative imports of a file (type-only imports left out), as absolute paths. */
function importsOf(file: string): Edges {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const edges: Edges = { static: [], dynamic: [] };
  const at = (spec: string) => resolve(dirname(file), spec.replace(/\?.*$/, ''));
  // import x from '...'; import { a, type B } from '...'; export ... from '...'; import '...'
  for (const m of text.matchAll(
    /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/g,
  )) {
    if (m[2]) continue;
    const names = m[3];
    // `import { type A, type B }` only: erased too.
    const braced = /^\{([^}]*)\}$/.exec(names.trim());
    const named = braced?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (named?.length && named.every((n) => /^type\s/.test(n))) continue;
    edges.static.push(at(m[4]));
  }
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) edges.static.push(at(m[1]));
  for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) edges.dynamic.push(at(m[1]));
  return edges;
}

const files = [...sourceFiles(join(SRC, 'core')), ...sourceFiles(join(SRC, 'tools'))];
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(SRC, f);
const path = (p: string) => join(SRC, p);

/** Every file reachable from `start` by static imports. */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length) {
    const f = stack.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const next of graph.get(f)?.static ?? []) if (graph.has(next)) stack.push(next);
  }
  return seen;
}

/** A static import cycle, as a list of files, or null. */
function findCycle(): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...trail.slice(trail.indexOf(f)), f];
    state.set(f, 'open');
    trail.push(f);
    for (const next of graph.get(f)?.static ?? []) {
      if (!graph.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of graph.keys()) {
    const cycle = visit(f);
    if (cycle) return cycle;
  }
  return null;
}

describe('the lazy-import cycle', () => {
  it('reads the graph it checks (the registry imports Agent and Skill; run-subagent imports the loop)', () => {
    expect(graph.get(path('tools/registry.ts'))?.static).toEqual(
      expect.arrayContaining([path('tools/agent/agent.ts'), path('tools/skill/skill.ts')]),
    );
    expect(graph.get(path('tools/agent/run-subagent.ts'))?.static).toContain(path('core/query.ts'));
  });

  it('has no static import cycle in src/core and src/tools', () => {
    const cycle = findCycle();
    expect(cycle?.map(rel) ?? null).toBeNull();
  });

  it('nothing the registry imports statically reaches the loop', () => {
    const fromRegistry = reachable(path('tools/registry.ts'));
    expect(fromRegistry.has(path('core/query.ts'))).toBe(false);
    expect(fromRegistry.has(path('tools/agent/run-subagent.ts'))).toBe(false);
  });

  it('Agent and Skill reach the loop only through a dynamic import inside call', () => {
    for (const tool of ['tools/agent/agent.ts', 'tools/skill/skill.ts']) {
      const edges = graph.get(path(tool)) as Edges;
      expect(edges.dynamic).toContain(path('tools/agent/run-subagent.ts'));
      expect(edges.static).not.toContain(path('tools/agent/run-subagent.ts'));
      expect(edges.static).not.toContain(path('core/query.ts'));
      // The import sits inside `call`.
      const text = readFileSync(path(tool), 'utf8');
      const callAt = text.indexOf('async call(');
      const importAt = text.indexOf("await import('");
      expect(callAt).toBeGreaterThan(0);
      expect(importAt).toBeGreaterThan(callAt);
    }
    // The loop does reach the pool's tools: that is the edge the dynamic import leaves out.
    expect(reachable(path('tools/agent/run-subagent.ts')).has(path('core/query.ts'))).toBe(true);
  });
});
