import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { MAX_TOOL_CONCURRENCY } from './constants.ts';
import { createToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import type { ToolUseBlockParam } from './messages.ts';
import { partitionToolCalls, runToolCalls } from './orchestration.ts';
import { makeSleepTool, ThrowingTool } from './test-tools.ts';
import { defaultCanUseTool } from './tool-execution.ts';

const block = (id: string, name: string, input: unknown): ToolUseBlockParam => ({
  type: 'tool_use',
  id,
  name,
  input,
});

async function drain<T, R>(gen: AsyncGenerator<T, R>): Promise<{ events: T[]; result: R }> {
  const events: T[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, result: step.value };
}

describe('partitionToolCalls', () => {
  const safe = makeSleepTool('Safe', { safe: true });
  const unsafe = makeSleepTool('Unsafe', { safe: false });
  const tools = [safe, unsafe];

  it('groups consecutive concurrency-safe calls and isolates the others, in order', async () => {
    const batches = await partitionToolCalls(
      [
        block('1', 'Safe', { ms: 1 }),
        block('2', 'Safe', { ms: 1 }),
        block('3', 'Unsafe', { ms: 1 }),
        block('4', 'Safe', { ms: 1 }),
        block('5', 'Unsafe', { ms: 1 }),
        block('6', 'Unsafe', { ms: 1 }),
      ],
      tools,
    );
    expect(batches.map((b) => [b.concurrent, b.calls.map((c) => c.block.id)])).toEqual([
      [true, ['1', '2']],
      [false, ['3']],
      [true, ['4']],
      [false, ['5']],
      [false, ['6']],
    ]);
  });

  it('treats invalid input and unknown tools as unsafe (they run alone)', async () => {
    const batches = await partitionToolCalls(
      [
        block('1', 'Safe', { ms: 1 }),
        block('2', 'Safe', { ms: 'x' }),
        block('3', 'Nope', {}),
        block('4', 'Safe', { ms: 1 }),
      ],
      tools,
    );
    expect(batches.map((b) => b.concurrent)).toEqual([true, false, false, true]);
  });
});

describe('runToolCalls', () => {
  it('runs a safe batch concurrently (capped), unsafe calls alone, results in block order', async () => {
    const log: string[] = [];
    const safe = makeSleepTool('Safe', { safe: true, log });
    const unsafe = makeSleepTool('Unsafe', { safe: false, log });
    const sandbox = await createJustBashSandbox();
    const n = MAX_TOOL_CONCURRENCY + 2;
    const blocks = [
      ...Array.from({ length: n }, (_, i) => block(`s${i}`, 'Safe', { ms: 30, tag: `s${i}` })),
      block('u1', 'Unsafe', { ms: 5, tag: 'u1' }),
      block('u2', 'Unsafe', { ms: 5, tag: 'u2' }),
    ];
    const { result } = await drain(
      runToolCalls({
        blocks,
        tools: [safe, unsafe],
        context: createToolUseContext({ sandbox }),
        canUseTool: defaultCanUseTool,
      }),
    );
    expect(result.results.map((r) => r.tool_use_id)).toEqual(blocks.map((b) => b.id));
    // The first MAX_TOOL_CONCURRENCY safe calls start before any ends; the cap holds the rest back.
    const firstEnd = log.findIndex((e) => e.startsWith('end:'));
    expect(log.slice(0, firstEnd).filter((e) => e.startsWith('start:'))).toHaveLength(MAX_TOOL_CONCURRENCY);
    // Unsafe calls run one after the other, after the batch.
    expect(log.slice(-4)).toEqual(['start:u1', 'end:u1', 'start:u2', 'end:u2']);
  });

  it('turns unknown tools, bad input and throwing tools into is_error results and goes on', async () => {
    const safe = makeSleepTool('Safe', { safe: true });
    const sandbox = await createJustBashSandbox();
    const { result, events } = await drain(
      runToolCalls({
        blocks: [
          block('a', 'Ghost', {}),
          block('b', 'Safe', { ms: 'soon' }),
          block('c', 'Explode', {}),
          block('d', 'Safe', { ms: 1 }),
        ],
        tools: [safe, ThrowingTool],
        context: createToolUseContext({ sandbox }),
        canUseTool: defaultCanUseTool,
      }),
    );
    const [a, b, c, d] = result.results;
    expect(a).toMatchObject({ is_error: true });
    expect(String(a.content)).toMatch(/No such tool available: Ghost/);
    expect(b).toMatchObject({ is_error: true });
    expect(String(b.content)).toMatch(/InputValidationError: Safe/);
    expect(String(b.content)).toMatch(/ms/);
    expect(c).toMatchObject({ is_error: true, content: 'Error: kaboom' });
    expect(d.is_error).toBeUndefined();
    const statuses = events.filter(
      (e): e is Extract<QueryEvent, { type: 'tool-result' }> => e.type === 'tool-result',
    );
    expect(statuses.map((e) => e.status)).toEqual(['error', 'error', 'error', 'done']);
  });

  it('applies context modifiers of unsafe tools in block order after the batch, never of safe ones', async () => {
    const { buildTool, textResult } = await import('./tool.ts');
    const { z } = await import('zod');
    const seen: string[] = [];
    const Mod = buildTool({
      name: 'Mod',
      inputSchema: z.strictObject({ cwd: z.string() }),
      description: () => 'sets cwd',
      checkPermissions: async () => ({ behavior: 'allow' }),
      async call(input, ctx) {
        seen.push(ctx.options.cwd);
        return {
          data: input.cwd,
          contextModifier: (c) => ({ ...c, options: { ...c.options, cwd: `${c.options.cwd}>${input.cwd}` } }),
        };
      },
      mapToolResultToToolResultBlockParam: (o: string, id) => textResult(id, o),
    });
    const sandbox = await createJustBashSandbox();
    const ctx = createToolUseContext({ sandbox, options: { cwd: 'root' } });
    const { result } = await drain(
      runToolCalls({
        blocks: [block('1', 'Mod', { cwd: 'a' }), block('2', 'Mod', { cwd: 'b' })],
        tools: [Mod],
        context: ctx,
        canUseTool: defaultCanUseTool,
      }),
    );
    expect(seen).toEqual(['root', 'root>a']);
    expect(result.context.options.cwd).toBe('root>a>b');

    // The same tool, concurrency-safe: its modifiers are ignored.
    const SafeMod = { ...Mod, name: 'SafeMod', isConcurrencySafe: () => true };
    const safeRun = await drain(
      runToolCalls({
        blocks: [block('3', 'SafeMod', { cwd: 'c' }), block('4', 'SafeMod', { cwd: 'd' })],
        tools: [SafeMod],
        context: ctx,
        canUseTool: defaultCanUseTool,
      }),
    );
    expect(safeRun.result.results.map((r) => r.content)).toEqual(['c', 'd']);
    expect(safeRun.result.context.options.cwd).toBe('root');
  });

  it('on interrupt: abort tools stop, finish tools complete, later calls get synthetic results', async () => {
    const log: string[] = [];
    const fin = makeSleepTool('Fin', { safe: false, behavior: 'finish', log });
    const abo = makeSleepTool('Abo', { safe: false, behavior: 'abort', log });
    const sandbox = await createJustBashSandbox();
    const ctx = createToolUseContext({ sandbox });
    setTimeout(() => ctx.abortController.abort(), 40);
    const { result } = await drain(
      runToolCalls({
        blocks: [block('f', 'Fin', { ms: 100 }), block('a', 'Abo', { ms: 1000 })],
        tools: [fin, abo],
        context: ctx,
        canUseTool: defaultCanUseTool,
      }),
    );
    expect(result.results[0]).toMatchObject({ tool_use_id: 'f', content: 'slept 100 (Fin)' });
    expect(result.results[1]).toMatchObject({ tool_use_id: 'a', is_error: true });
    expect(log).toEqual(['start:Fin', 'end:Fin']);
  });
});
