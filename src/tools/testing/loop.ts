/**
 * Test harness for tools that need the loop (sub-agents, plan mode, questions, server tools): the real
 * `query()` on the real @anthropic-ai/sdk against the mock Messages API (started by the test on
 * loopback), the real permission engine, the real just-bash sandbox. Permission requests are answered
 * by `answer` (sub-agents' too, as the page answers them).
 */
import { createSchemaCache } from '../../core/api-schema.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { PermissionAnswer, QueryEvent } from '../../core/events.ts';
import type { MessageParam } from '../../core/messages.ts';
import { createAnthropicClient } from '../../core/model/anthropic.ts';
import { createCanUseTool } from '../../core/permissions/can-use-tool.ts';
import { rulesFromSet } from '../../core/permissions/rules.ts';
import type { PermissionMode, PermissionRuleSet } from '../../core/permissions/types.ts';
import { type QueryOutcome, query } from '../../core/query.ts';
import type { AnyTool } from '../../core/tool.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';

export type PermissionRequest = Extract<QueryEvent, { type: 'permission-request' }>;

export interface LoopRun {
  events: QueryEvent[];
  /** Every event, sub-agents' unwrapped (with the agent id that sent it). */
  flat: Array<{ agentId: string; event: QueryEvent }>;
  outcome: QueryOutcome;
  context: ToolUseContext;
  /** The permission mode at the end (the app state's, as the session would apply it). */
  mode: PermissionMode;
}

export interface LoopOptions {
  baseURL: string;
  sandbox: Sandbox;
  tools: readonly AnyTool[];
  messages: MessageParam[];
  mode?: PermissionMode;
  rules?: PermissionRuleSet;
  /** Answers permission prompts (default: allow once). */
  answer?: (request: PermissionRequest, agentId: string) => PermissionAnswer | Promise<PermissionAnswer>;
  onEvent?: (event: QueryEvent, agentId: string) => void;
  abortController?: AbortController;
  context?: ToolUseContext;
}

/** Every event with the agent that sent it, sub-agent events unwrapped (recursively). */
export function flatten(event: QueryEvent, agentId = 'main'): Array<{ agentId: string; event: QueryEvent }> {
  if (event.type === 'subagent-event') return flatten(event.event, event.agentId);
  return [{ agentId, event }];
}

export async function runLoop(o: LoopOptions): Promise<LoopRun> {
  let mode: PermissionMode = o.mode ?? 'default';
  const rules = rulesFromSet(o.rules, 'settings').rules;
  const base = o.context ?? createToolUseContext({ sandbox: o.sandbox, options: { tools: o.tools } });
  let appState = base.getAppState();
  // The session's app state: a permission mode set here is the session's mode from now on.
  const context: ToolUseContext = {
    ...base,
    abortController: o.abortController ?? new AbortController(),
    options: { ...base.options, tools: o.tools, permissionMode: mode },
    getAppState: () => ({ ...appState, permissionMode: mode }),
    setAppState: (fn) => {
      appState = fn({ ...appState, permissionMode: mode });
      if (appState.permissionMode) mode = appState.permissionMode;
    },
  };
  const client = createAnthropicClient({ apiKey: 'test', baseURL: o.baseURL, maxRetries: 0 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages: o.messages,
    tools: o.tools,
    context,
    schemaCache: createSchemaCache(),
    canUseTool: createCanUseTool({ getRules: () => rules, getMode: () => mode }),
  });
  const events: QueryEvent[] = [];
  const flat: LoopRun['flat'] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    for (const f of flatten(step.value)) {
      flat.push(f);
      o.onEvent?.(f.event, f.agentId);
      if (f.event.type === 'permission-request') {
        const request = f.event;
        const agentId = f.agentId;
        void Promise.resolve(
          o.answer ? o.answer(request, agentId) : { decision: 'allow-once' as const },
        ).then((a) => request.respond(a));
      }
    }
    step = await gen.next();
  }
  return { events, flat, outcome: step.value, context: step.value.context, mode };
}

export const userMessage = (text: string): MessageParam => ({
  role: 'user',
  content: [{ type: 'text', text }],
});

/** The text of the first user message of a request body (a sub-agent's prompt). */
export function firstUserText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const first = body.messages[0]?.content;
  if (typeof first === 'string') return first;
  if (!Array.isArray(first)) return '';
  return first
    .map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : ''))
    .join('\n');
}
