import { beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, MAIN_AGENT_ID, type ToolUseContext } from '../../core/context.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { TODO_MAX_ITEMS, TodoWriteTool } from './todo-write.ts';

let ctx: ToolUseContext;
beforeEach(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});

const item = (content: string, status: 'pending' | 'in_progress' | 'completed' = 'pending') => ({
  content,
  status,
  activeForm: `${content}ing`,
});

describe('TodoWrite', () => {
  it('keeps the list in the app state by agent, and returns the list before and after', async () => {
    const first = await TodoWriteTool.call({ todos: [item('Read', 'in_progress'), item('Fix')] }, ctx);
    expect(first.data.oldTodos).toEqual([]);
    expect(ctx.getAppState().todos[MAIN_AGENT_ID]).toEqual([item('Read', 'in_progress'), item('Fix')]);
    const sub = { ...ctx, agentId: 'agent-1' };
    await TodoWriteTool.call({ todos: [item('Explore', 'in_progress')] }, sub);
    expect(ctx.getAppState().todos['agent-1']).toHaveLength(1);
    expect(ctx.getAppState().todos[MAIN_AGENT_ID]).toHaveLength(2);
    const second = await TodoWriteTool.call(
      { todos: [item('Read', 'completed'), item('Fix', 'in_progress')] },
      ctx,
    );
    expect(second.data.oldTodos.map((t) => t.status)).toEqual(['in_progress', 'pending']);
    const block = TodoWriteTool.mapToolResultToToolResultBlockParam(second.data, 'toolu_1');
    expect(block.content).toMatch(/modified successfully/);
    expect(TodoWriteTool.renderToolResultMessage?.(second.data, { todos: [] })).toEqual({
      kind: 'text',
      text: '[x] Read\n[~] Fix',
    });
  });

  it('clears the list once every item is completed', async () => {
    await TodoWriteTool.call({ todos: [item('A', 'completed'), item('B', 'completed')] }, ctx);
    expect(ctx.getAppState().todos[MAIN_AGENT_ID]).toEqual([]);
  });

  it('refuses two items in progress, too many items, and a missing activeForm (schema)', async () => {
    expect(
      TodoWriteTool.validateInput?.({ todos: [item('A', 'in_progress'), item('B', 'in_progress')] }, ctx),
    ).toMatch(/keep exactly one in progress/);
    const many = Array.from({ length: TODO_MAX_ITEMS + 1 }, (_, i) => item(`t${i}`));
    expect(TodoWriteTool.validateInput?.({ todos: many }, ctx)).toMatch(/at most 50/);
    expect(
      TodoWriteTool.inputSchema.safeParse({ todos: [{ content: 'x', status: 'pending' }] }).success,
    ).toBe(false);
    expect(TodoWriteTool.inputSchema.safeParse({ todos: [], extra: 1 }).success).toBe(false);
  });

  it('is allowed without asking and keeps its input JSON schema stable', async () => {
    expect(
      await TodoWriteTool.checkPermissions({ todos: [] }, { mode: 'plan', root: '/', cwd: '/' }),
    ).toEqual({
      behavior: 'allow',
    });
    await expect(JSON.stringify(TodoWriteTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/todo-write.schema.json',
    );
  });
});
