/**
 * TodoWrite: the agent's todo list (Claude Code's `todos: [{content, status, activeForm}]`). The list
 * lives in the app state, keyed by agent (a sub-agent keeps its own), where the session shows it: the
 * Todos panel and the compact list above the prompt box. Changes only the session, never a file.
 */
import { z } from 'zod';
import type { TodoItem } from '../../core/context.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';

/** Most items one list may hold, and the longest item text (characters). */
export const TODO_MAX_ITEMS = 50;
export const TODO_MAX_CHARS = 500;

const PROMPT = promptText
  .replaceAll('{{MAX_ITEMS}}', String(TODO_MAX_ITEMS))
  .replaceAll('{{MAX_CHARS}}', String(TODO_MAX_CHARS))
  .trim();

const todoSchema = z.strictObject({
  content: z.string().min(1).describe('What to do, in the imperative ("Run the tests")'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z
    .string()
    .min(1)
    .describe('The same in the present continuous, shown while it is in progress ("Running the tests")'),
});

const inputSchema = z.strictObject({
  todos: z.array(todoSchema).describe('The updated todo list'),
});

export type TodoWriteInput = z.infer<typeof inputSchema>;

export interface TodoWriteOutput {
  oldTodos: TodoItem[];
  newTodos: TodoItem[];
  agentId: string;
}

/** Why a list cannot be kept, or null. */
function problem(todos: readonly TodoItem[]): string | null {
  if (todos.length > TODO_MAX_ITEMS) {
    return `The list has ${todos.length} items; keep at most ${TODO_MAX_ITEMS} (merge or drop some).`;
  }
  const long = todos.findIndex(
    (t) => t.content.length > TODO_MAX_CHARS || t.activeForm.length > TODO_MAX_CHARS,
  );
  if (long >= 0) return `Item ${long + 1} is longer than ${TODO_MAX_CHARS} characters: say it shorter.`;
  const running = todos.filter((t) => t.status === 'in_progress').length;
  if (running > 1) {
    return `${running} items are in_progress: keep exactly one in progress at a time (mark the others pending or completed).`;
  }
  return null;
}

/** The list as one line per item, for the result and the card. */
export function todoLines(todos: readonly TodoItem[]): string {
  const mark = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;
  return todos.map((t) => `${mark[t.status]} ${t.content}`).join('\n');
}

export const TodoWriteTool = buildTool({
  name: 'TodoWrite',
  searchHint: 'todo list plan steps progress tasks checklist',
  inputSchema,
  description: () => 'Keep the todo list of the current task (shown to the user)',
  prompt: () => PROMPT,

  // It changes the session's list only: nothing to approve, and plan mode lets it through.
  checkPermissions: async () => ({ behavior: 'allow' }),
  isConcurrencySafe: () => false,
  validateInput: (input) => problem(input.todos),

  async call(input, ctx) {
    const error = problem(input.todos);
    if (error) throw new ToolInputError(error);
    const agentId = ctx.agentId;
    const oldTodos = ctx.getAppState().todos[agentId] ?? [];
    // A list with every item done is finished: the panel is cleared, as Claude Code does.
    const done = input.todos.length > 0 && input.todos.every((t) => t.status === 'completed');
    const kept = done ? [] : input.todos;
    ctx.setAppState((prev) => ({ ...prev, todos: { ...prev.todos, [agentId]: kept } }));
    return { data: { oldTodos, newTodos: input.todos, agentId } };
  },

  mapToolResultToToolResultBlockParam: (_output: TodoWriteOutput, toolUseId) =>
    textResult(
      toolUseId,
      'Todos have been modified successfully. Keep using the todo list to track your progress, and carry on with the current task if there is one.',
    ),

  renderToolUseMessage: (input) => {
    const todos = Array.isArray(input.todos) ? input.todos : [];
    const done = todos.filter((t) => t?.status === 'completed').length;
    return {
      title: 'Todos',
      subtitle: todos.length ? `${done}/${todos.length} done` : undefined,
      body: { kind: 'none' },
    };
  },
  renderToolResultMessage: (output) => ({ kind: 'text', text: todoLines(output.newTodos) || '(empty list)' }),
  toAutoClassifierInput: (input) => `${input.todos.length} todos`,
});
