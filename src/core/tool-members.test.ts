/**
 * Every member of the Tool, ToolUseContext and ToolUseOptions interfaces is read by something outside
 * tests (DESIGN.md: a member nothing reads is removed, not kept for show). Read from the sources: each
 * member must appear as a property access (`tool.aliases`, `ctx.agentId`, `options.runtime`) in a
 * non-test file of src.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !p.includes('/testing/') ? [p] : [];
  });
}

const sources = files(SRC).map((f) => readFileSync(f, 'utf8'));

/** Members of `interface Name { ... }` in `file` (one level: `name?(` / `readonly name?:` / `name:`). */
function members(file: string, name: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const start = text.search(new RegExp(`export interface ${name}[<\\s]`));
  const open = text.indexOf('{', start);
  let depth = 0;
  let end = open;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) {
      end = i;
      break;
    }
  }
  const body = text.slice(open + 1, end);
  const out: string[] = [];
  let level = 0;
  for (const line of body.split('\n')) {
    if (level === 0) {
      const m = /^\s*(?:readonly\s+)?([A-Za-z_]\w*)\??\s*[(:<]/.exec(line);
      if (m && !line.trim().startsWith('*') && !line.trim().startsWith('//')) out.push(m[1]);
    }
    for (const ch of line) {
      if (ch === '{' || ch === '(') level++;
      if (ch === '}' || ch === ')') level--;
    }
  }
  return [...new Set(out)];
}

function readers(member: string, receivers: string): number {
  const re = new RegExp(`\\b(?:${receivers})\\??\\.${member}\\b`);
  return sources.filter((s) => re.test(s)).length;
}

describe('interface members are read', () => {
  it('every Tool member', () => {
    const names = members('core/tool.ts', 'Tool');
    expect(names).toEqual(
      expect.arrayContaining([
        'aliases',
        'shouldDefer',
        'isEnabled',
        'isDestructive',
        'toAutoClassifierInput',
      ]),
    );
    const unread = names.filter((m) => readers(m, 'tool|t|def|call\\.tool|prepared\\.tool|inner') === 0);
    expect(unread).toEqual([]);
  });

  it('every ToolUseContext and ToolUseOptions member', () => {
    const ctx = members('core/context.ts', 'ToolUseContext');
    expect(ctx).toEqual(
      expect.arrayContaining(['agentId', 'queryTracking', 'getAppState', 'setAppState', 'messages']),
    );
    const receivers = 'ctx|context|c|callCtx|runCtx|toolUseContext|base|parent';
    expect(ctx.filter((m) => readers(m, receivers) === 0)).toEqual([]);
    const options = members('core/context.ts', 'ToolUseOptions');
    expect(options).toEqual(expect.arrayContaining(['runtime', 'allowedTools', 'tools']));
    expect(
      options.filter((m) => readers(m, 'options|ctx\\.options|context\\.options|c\\.options') === 0),
    ).toEqual([]);
  });
});
