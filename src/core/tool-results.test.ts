import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { ReadTool } from '../tools/read/read.ts';
import { PERSISTED_OUTPUT_PREVIEW_CHARS } from './constants.ts';
import { createToolUseContext, type ToolUseContext } from './context.ts';
import type { ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';
import { createIdbStore, createMemoryStore } from './storage.ts';
import { type AnyTool, buildTool, textResult } from './tool.ts';
import {
  createResultSpiller,
  createSpillStore,
  parseSpilledResultPath,
  persistedOutputText,
  previewOf,
  removeSessionSpills,
  type SpillStore,
  spilledPathIn,
  spilledResultPath,
} from './tool-results.ts';

function tool(name: string, maxResultSizeChars?: number): AnyTool {
  return buildTool({
    name,
    inputSchema: z.strictObject({}),
    description: () => name,
    ...(maxResultSizeChars !== undefined ? { maxResultSizeChars } : {}),
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
  });
}
const lines = (n: number, width = 50) =>
  Array.from({ length: n }, (_, i) => `line ${i + 1} ${'x'.repeat(width)}`).join('\n');
const result = (id: string, content: string, isError = false) => textResult(id, content, isError);
const use = (id: string, name: string): ToolUseBlockParam => ({ type: 'tool_use', id, name, input: {} });
const text = (b: ToolResultBlockParam) => String(b.content);

let sandbox: Sandbox;
let ctx: ToolUseContext;
let now: number;
let store: SpillStore;
let dbs = 0;

beforeEach(async () => {
  now = Date.UTC(2026, 0, 1);
  store = createSpillStore({ kv: createIdbStore(`results-test-${++dbs}`), clock: () => now });
  sandbox = await createJustBashSandbox({ files: { 'a.txt': 'a\n' } });
  ctx = createToolUseContext({ sandbox, resultStore: store });
});
afterEach(async () => {
  await sandbox.dispose();
});

describe('the persisted-output block', () => {
  it('previews 2 KB cut at a newline past the middle, else cut hard', () => {
    const text = lines(100);
    const preview = previewOf(text);
    expect(preview.length).toBeLessThanOrEqual(PERSISTED_OUTPUT_PREVIEW_CHARS);
    expect(preview.length).toBeGreaterThan(PERSISTED_OUTPUT_PREVIEW_CHARS / 2);
    expect(text.startsWith(preview)).toBe(true);
    expect(text[preview.length]).toBe('\n');
    const noNewline = `${'y'.repeat(500)}\n${'z'.repeat(5000)}`;
    expect(previewOf(noNewline)).toHaveLength(PERSISTED_OUTPUT_PREVIEW_CHARS);
  });

  it('says the size, where the rest is and how to read it', () => {
    const out = persistedOutputText('toolu_abc', lines(3000));
    expect(out.startsWith('<persisted-output>\nOutput too large (')).toBe(true);
    expect(out).toContain('3,000 lines');
    expect(out).toContain('/.tabcode/results/toolu_abc.txt');
    expect(out).toContain('offset and limit');
    expect(out.endsWith('</persisted-output>')).toBe(true);
    expect(parseSpilledResultPath(spilledResultPath('toolu_abc'))).toBe('toolu_abc');
    expect(parseSpilledResultPath('/.tabcode/results/../x.txt')).toBeUndefined();
  });
});

describe('spilling per tool and per message', () => {
  it('spills over the tool limit (default 50,000), never for Read, and keeps is_error', async () => {
    const spiller = createResultSpiller({ store });
    const big = lines(700); // ~40,000 chars
    const bash = tool('Bash', 30_000);
    const spilled = await spiller.processResult(result('toolu_1', big, true), bash, ctx);
    expect(text(spilled)).toContain('<persisted-output>');
    const id = parseSpilledResultPath(spilledPathIn(text(spilled)) ?? '') ?? '';
    expect(id).toMatch(/^spill_[A-Za-z0-9]{20}$/);
    expect(spilled.is_error).toBe(true);
    expect(await store.get(id)).toBe(big);
    expect(await store.get('toolu_1')).toBeUndefined();
    expect(await spiller.processResult(result('toolu_2', big), tool('Plain'), ctx)).toEqual(
      result('toolu_2', big),
    );
    const huge = lines(2000);
    expect(await spiller.processResult(result('toolu_3', huge), ReadTool, ctx)).toEqual(
      result('toolu_3', huge),
    );
  });

  it('spills the largest results first while a message passes 200,000 characters', async () => {
    const spiller = createResultSpiller({ store });
    const t = tool('Fetch', 100_000);
    const sizes = { a: 90_000, b: 95_000, c: 60_000, r: 80_000 };
    const results = Object.entries(sizes).map(([id, n]) => result(id, 'q'.repeat(n)));
    const uses = [use('a', 'Fetch'), use('b', 'Fetch'), use('c', 'Fetch'), use('r', 'Read')];
    for (const r of results) await spiller.processResult(r, r.tool_use_id === 'r' ? ReadTool : t, ctx);
    const out = await spiller.enforceMessageBudget(results, uses, [t, ReadTool], ctx);
    // 325,000 → b (95k) and a (90k) go; c and the Read result stay.
    expect(out.map((b) => text(b).includes('<persisted-output>'))).toEqual([true, true, false, false]);
    expect(out.map((b) => b.tool_use_id)).toEqual(['a', 'b', 'c', 'r']);
    const decisions = ctx.contentReplacementState.decisions;
    expect(decisions.get('c')).toBeNull();
    expect(typeof decisions.get('b')).toBe('string');
  });

  it('never changes a decision once made', async () => {
    const spiller = createResultSpiller({ store });
    const kept = await spiller.enforceMessageBudget(
      [result('k', 'small')],
      [use('k', 'X')],
      [tool('X')],
      ctx,
    );
    expect(kept[0]).toEqual(result('k', 'small'));
    // The same id, now huge: still inline, as the model first saw it.
    const later = await spiller.processResult(result('k', lines(5000)), tool('X', 10), ctx);
    expect(text(later)).not.toContain('<persisted-output>');
    const first = await spiller.processResult(result('s', lines(2000)), tool('X', 10), ctx);
    const again = await spiller.processResult(result('s', 'tiny now'), tool('X', 10), ctx);
    expect(again).toEqual(first);
  });

  it('cuts the text instead when storage fails', async () => {
    const broken = {
      put: async () => Promise.reject(new Error('QuotaExceededError')),
      get: async () => undefined,
    };
    const spiller = createResultSpiller({ store: broken });
    const out = await spiller.processResult(result('q', lines(2000)), tool('X', 1000), ctx);
    expect(text(out)).toContain('storage is unavailable (Error: QuotaExceededError)');
    expect(text(out).length).toBeLessThan(11_000);
  });
});

describe('reading spilled results with Read', () => {
  async function read(input: Record<string, unknown>) {
    const parsed = ReadTool.inputSchema.parse(input);
    expect(await ReadTool.validateInput?.(parsed, ctx)).toBeNull();
    const perm = await ReadTool.checkPermissions(parsed, {
      mode: 'default',
      root: sandbox.root,
      cwd: sandbox.root,
    });
    expect(perm.behavior).toBe('allow');
    try {
      const out = await ReadTool.call(parsed, ctx);
      return ReadTool.mapToolResultToToolResultBlockParam(out.data, 'toolu_read').content as string;
    } catch (err) {
      return `ERROR ${(err as Error).message}`;
    }
  }

  it('pages through a spilled result with offset and limit, and records no file read', async () => {
    const spiller = createResultSpiller({ store });
    const spilled = await spiller.processResult(result('toolu_big', lines(3000)), tool('X', 1000), ctx);
    const page = await read({ file_path: spilledPathIn(text(spilled)), offset: 1500, limit: 2 });
    expect(page).toBe(
      `  1500\tline 1500 ${'x'.repeat(50)}\n  1501\tline 1501 ${'x'.repeat(50)}\n\n... (file has 3000 lines; showing lines 1500-1501; use offset/limit to read more)`,
    );
    expect(ctx.readFileState.size).toBe(0);
    expect(await read({ file_path: spilledResultPath('toolu_none') })).toMatch(/^ERROR No saved output at/);
  });

  it('evicts by age and by total size, and says so when an evicted one is read', async () => {
    const small = createSpillStore({ kv: createMemoryStore(), clock: () => now, maxTotalChars: 25_000 });
    ctx = { ...ctx, resultStore: small };
    await small.put('old', 'o'.repeat(10_000));
    now += 1000;
    await small.put('mid', 'm'.repeat(10_000));
    now += 1000;
    await small.put('new', 'n'.repeat(10_000)); // 30,000 > 25,000: the oldest goes
    expect((await small.lookup('old')).kind).toBe('evicted');
    expect((await small.lookup('mid')).kind).toBe('found');
    expect(await read({ file_path: spilledResultPath('old') })).toMatch(
      /^ERROR The saved output \/\.tabcode\/results\/old\.txt is no longer available: it was evicted from storage on 2026-01-01T00:00:02\.000Z/,
    );
    now += 8 * 24 * 60 * 60_000;
    expect(await small.evict()).toBe(2);
    expect((await small.lookup('new')).kind).toBe('evicted');
    expect((await small.lookup('never')).kind).toBe('missing');
  });
});

describe('spills per session', () => {
  it('a session reads only its own spills; ids are ours, so a repeated tool_use id overwrites nothing', async () => {
    const kv = createMemoryStore();
    const mine = createSpillStore({ kv, sessionId: 'session-a' });
    const theirs = createSpillStore({ kv, sessionId: 'session-b' });
    const spillA = createResultSpiller({ store: mine });
    const spillB = createResultSpiller({ store: theirs });
    const ctxB = createToolUseContext({ sandbox, resultStore: theirs });
    const a = await spillA.processResult(result('toolu_same', `A ${lines(2000)}`), tool('X', 1000), ctx);
    const b = await spillB.processResult(result('toolu_same', `B ${lines(2000)}`), tool('X', 1000), ctxB);
    const idA = parseSpilledResultPath(spilledPathIn(text(a)) ?? '') ?? '';
    const idB = parseSpilledResultPath(spilledPathIn(text(b)) ?? '') ?? '';
    expect(idA).not.toBe(idB);
    expect((await mine.get(idA))?.startsWith('A ')).toBe(true);
    expect((await theirs.get(idB))?.startsWith('B ')).toBe(true);
    // Another session's id, read through this session's store: not there.
    expect(await mine.get(idB)).toBeUndefined();
    expect((await mine.lookup(idB)).kind).toBe('missing');
  });

  it('removeSessionSpills drops a session’s spills and eviction notes, and leaves the others', async () => {
    const kv = createMemoryStore();
    const mine = createSpillStore({ kv, sessionId: 'gone/with:odd chars', maxTotalChars: 15_000 });
    const theirs = createSpillStore({ kv, sessionId: 'kept' });
    await mine.put('spill_1', 'x'.repeat(10_000));
    await mine.put('spill_2', 'y'.repeat(10_000)); // evicts spill_1: a tombstone
    await theirs.put('spill_3', 'z');
    expect((await mine.lookup('spill_1')).kind).toBe('evicted');
    expect(await removeSessionSpills(kv, 'gone/with:odd chars')).toBe(1);
    expect((await mine.lookup('spill_1')).kind).toBe('missing');
    expect((await mine.lookup('spill_2')).kind).toBe('missing');
    expect(await theirs.get('spill_3')).toBe('z');
    expect(await kv.keys()).toHaveLength(2);
  });
});
