/**
 * The agent session: transcript, sandbox, tool pool, schema cache and model client, wired to the loop.
 * The UI and the embed API drive it through the AgentSession interface (types.ts).
 */
import { createSchemaCache } from '../core/api-schema.ts';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL } from '../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import { features } from '../core/features.ts';
import type { MessageParam } from '../core/messages.ts';
import { createAnthropicClient, DEFAULT_BASE_URL } from '../core/model/anthropic.ts';
import { query } from '../core/query.ts';
import { buildSystemPrompt, today } from '../core/system-prompt.ts';
import type { AnyTool } from '../core/tool.ts';
import { DEMO_PROJECT } from '../sandbox/demo-project.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { assembleToolPool, getTools } from '../tools/registry.ts';
import type { AgentSession, AgentSettings, SessionEvent } from './types.ts';

/** The key the SDK sends when the dev proxy adds the real one (it is replaced server-side). */
const PROXY_PLACEHOLDER_KEY = 'added-by-dev-proxy';

export function defaultSettings(): AgentSettings {
  const proxy = typeof __TABCODE_DEV_PROXY__ !== 'undefined' && __TABCODE_DEV_PROXY__;
  return {
    apiKey: '',
    baseURL: proxy && typeof location !== 'undefined' ? `${location.origin}/api/anthropic` : DEFAULT_BASE_URL,
    model: DEFAULT_MODEL,
    maxTokens: DEFAULT_MAX_TOKENS,
    permissionMode: 'default',
  };
}

/** True when requests go through the dev server's proxy, which adds the key. */
export function usesDevProxy(settings: AgentSettings): boolean {
  return /\/api\/anthropic\/?$/.test(settings.baseURL);
}

export interface CreateAgentSessionOptions {
  settings?: Partial<AgentSettings>;
  sandbox?: Sandbox;
  /** Extra tools (e.g. MCP), placed after the built-ins. */
  mcpTools?: AnyTool[];
  /** Blanket deny rules that remove tools from the pool. */
  denyRules?: string[];
  fetch?: typeof fetch;
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<AgentSession> {
  let settings: AgentSettings = { ...defaultSettings(), ...options.settings };
  const sandbox = options.sandbox ?? (await createJustBashSandbox({ files: { ...DEMO_PROJECT } }));
  const tools = assembleToolPool(getTools(options.denyRules ?? []), options.mcpTools ?? []);
  const schemaCache = createSchemaCache();
  const listeners = new Set<(e: SessionEvent) => void>();
  let transcript: MessageParam[] = [];
  let running: Promise<void> | undefined;
  let queue: Promise<void> = Promise.resolve();
  let context: ToolUseContext = createToolUseContext({
    sandbox,
    options: {
      tools,
      model: settings.model,
      permissionMode: settings.permissionMode,
      flags: { ...features() },
    },
  });

  const emit = (event: SessionEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        console.error('tabcode: a session listener threw', err);
      }
    }
  };

  const runTurn = async (prompt: string): Promise<void> => {
    const apiKey = settings.apiKey || (usesDevProxy(settings) ? PROXY_PLACEHOLDER_KEY : '');
    if (!apiKey) {
      emit({
        type: 'error',
        error: {
          kind: 'auth',
          message:
            'No API key is set. Open Settings to add your Anthropic API key (or run the dev server with ANTHROPIC_API_KEY).',
        },
      });
      return;
    }
    const abortController = new AbortController();
    context = {
      ...context,
      abortController,
      options: { ...context.options, model: settings.model, permissionMode: settings.permissionMode },
    };
    transcript = [...transcript, { role: 'user', content: [{ type: 'text', text: prompt }] }];
    emit({ type: 'run-start', prompt });
    const client = createAnthropicClient({ apiKey, baseURL: settings.baseURL, fetch: options.fetch });
    const systemPrompt = buildSystemPrompt({
      sandbox: sandbox.info(),
      root: sandbox.root,
      cwd: sandbox.root,
      date: today(),
    });
    const gen = query({
      client,
      model: settings.model,
      maxTokens: settings.maxTokens,
      systemPrompt,
      messages: transcript,
      tools,
      context,
      schemaCache,
    });
    let step = await gen.next();
    while (!step.done) {
      emit(step.value);
      step = await gen.next();
    }
    transcript = step.value.messages;
    context = step.value.context;
    emit({ type: 'run-end', transcriptLength: transcript.length });
  };

  const session: AgentSession = {
    sandbox,
    transcript: () => transcript,
    settings: () => settings,
    updateSettings(patch) {
      settings = { ...settings, ...patch };
    },
    send(prompt) {
      const run = queue.then(async () => {
        running = run;
        try {
          await runTurn(prompt);
        } catch (err) {
          emit({ type: 'error', error: { kind: 'unknown', message: `Unexpected error: ${String(err)}` } });
        } finally {
          running = undefined;
        }
      });
      queue = run;
      return run;
    },
    interrupt() {
      if (running) context.abortController.abort();
    },
    isRunning: () => running !== undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      context.abortController.abort();
      listeners.clear();
      await sandbox.dispose();
    },
  };
  return session;
}
