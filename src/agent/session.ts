/**
 * The agent session: transcript, sandbox, tool pool, schema cache and model client, wired to the loop.
 * The UI and the embed API drive it through the AgentSession interface (types.ts).
 */
import { openPersistentSchemaCache } from '../core/api-schema.ts';
import { createContextTracker, nothingToCompact } from '../core/compaction/index.ts';
import { compactConversation } from '../core/compaction/summarize.ts';
import {
  BASH_DEFAULT_TIMEOUT_MS,
  DEFAULT_CACHE_TTL,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL,
  MODEL_MAX_RETRIES,
} from '../core/constants.ts';
import { type AppState, createAppState, createToolUseContext, type ToolUseContext } from '../core/context.ts';
import { createDeferredToolsState, type ToolSearchSetting } from '../core/deferred-tools.ts';
import type { SessionStartSource } from '../core/hooks/types.ts';
import type { TextBlockParam } from '../core/messages.ts';
import { type ContentBlockParam, ensureToolResultPairing, type MessageParam } from '../core/messages.ts';
import { createAnthropicClient, DEFAULT_BASE_URL } from '../core/model/anthropic.ts';
import { contextWindowOf } from '../core/model/context-window.ts';
import { createCanUseTool, recordAllowAlways } from '../core/permissions/can-use-tool.ts';
import { type PermissionSettingsStorage, PermissionStore } from '../core/permissions/store.ts';
import type { PermissionRuleSet } from '../core/permissions/types.ts';
import { query } from '../core/query.ts';
import { createDefaultStore, type KeyValueStore } from '../core/storage.ts';
import { buildSystemPrompt, today } from '../core/system-prompt.ts';
import type { AnyTool } from '../core/tool.ts';
import { createResultSpiller, createSpillStore } from '../core/tool-results.ts';
import { createDefaultMcpManager, createMcpSampler, expandPrompt, type McpManager } from '../mcp/index.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { type OpenSandboxOptions, openSandbox } from '../sandbox/select.ts';
import { assembleToolPool, getAllBaseTools, getTools } from '../tools/registry.ts';
import { createSkillCatalog, type SkillDefinition, skillsAnnouncement } from '../tools/skill/skills.ts';
import { appStateFromTranscript } from './app-state.ts';
import { createSessionHooks, type HookRegistration } from './habits/session-hooks.ts';
import { shellRunBlock } from './habits/shell-mode.ts';
import { prepareTurn } from './habits/turn.ts';
import { allowAlwaysStorage } from './permission-store.ts';
import { errorOfStatus, headerOf, plannedRetryDelay } from './retry-wait.ts';
import { listSlashCommands } from './slash/list.ts';
import type {
  AgentSession,
  AgentSettings,
  CompactResult,
  ModelSummary,
  RequestSizes,
  SessionEvent,
  ShellRunResult,
} from './types.ts';

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

/** Sizes of a Messages API request body by part, or undefined for any other body. Never throws. */
export function requestSizes(body: unknown): RequestSizes | undefined {
  if (typeof body !== 'string' || !body.includes('"messages"')) return undefined;
  try {
    const parsed = JSON.parse(body) as { tools?: unknown; system?: unknown; messages?: unknown };
    if (!Array.isArray(parsed.messages)) return undefined;
    const size = (v: unknown) => (v === undefined ? 0 : JSON.stringify(v).length);
    return {
      toolsChars: size(parsed.tools),
      systemChars: size(parsed.system),
      messagesChars: size(parsed.messages),
    };
  } catch {
    return undefined;
  }
}

/** Most paths a "the user changed these files" reminder names. */
const MAX_USER_EDITS_NAMED = 20;

/** The note to the model about files the user changed by hand (a system reminder with the prompt). */
export function userEditsReminder(paths: readonly string[]): string {
  const named = paths.slice(0, MAX_USER_EDITS_NAMED).join(', ');
  const more = paths.length > MAX_USER_EDITS_NAMED ? ` and ${paths.length - MAX_USER_EDITS_NAMED} more` : '';
  return `The user changed these files by hand since your last turn: ${named}${more}. What you read of them before may be out of date: Read them again before you edit them.`;
}

export interface CreateAgentSessionOptions {
  settings?: Partial<AgentSettings>;
  sandbox?: Sandbox;
  /** Without `sandbox`: how to open one (the embed config's files and choice, no saved project). */
  openSandbox?: OpenSandboxOptions;
  /**
   * Requests need no key from the page: `fetch` answers in the page (the scripted demo) or the base URL is
   * a proxy that adds the key (an embedding host's). A placeholder is sent when no key is set.
   */
  keyless?: boolean;
  /** Extra tools (e.g. MCP), placed after the built-ins. */
  mcpTools?: AnyTool[];
  /** MCP servers; their tools join the pool at every turn. Default: a persisted manager; null: none. */
  mcp?: McpManager | null;
  /** Blanket deny rules that remove tools from the pool (embed deny rules, like `permissions.rules.deny`). */
  denyRules?: string[];
  /**
   * Permission rules of the host page (the embed config, shown with source "embed") and where the user's
   * settings rules persist (default: IndexedDB; null: nowhere).
   */
  permissions?: {
    rules?: PermissionRuleSet;
    storage?: PermissionSettingsStorage | null;
    /** Where "allow always" rules persist (default: this project's, in IndexedDB; none when `storage` is null). */
    projectStorage?: PermissionSettingsStorage | null;
  };
  fetch?: typeof fetch;
  /**
   * Names the session across page reloads: its schema cache and start date are stored under it, so a
   * reloaded page sends byte-identical tools and system (the prompt cache keeps hitting). Default: new.
   */
  sessionId?: string;
  /** Where the schema cache and session data (`session`) and spilled results (`results`) live. Default: IndexedDB, else memory. */
  storage?: { session?: KeyValueStore; results?: KeyValueStore };
  /** How ToolSearch results reach the model: 'auto' (default: native, portable once the endpoint refuses it). */
  toolSearch?: ToolSearchSetting;
  /** Prompt-cache TTL of the breakpoints (default DEFAULT_CACHE_TTL; '1h' for long idle gaps). */
  cacheTtl?: '5m' | '1h';
  /** The session clock (the date in the system prompt on first use). Default: now. */
  now?: () => Date;
  /** Project memory the host supplies (beside the workspace's CLAUDE.md); `setMemory` changes it later. */
  memory?: string;
  /** Hooks the host registers as functions (`hooks.register` adds more later). */
  hooks?: HookRegistration[];
  /** Skills the embedding page gives (beside the workspace's .claude/skills). */
  skills?: SkillDefinition[];
}

/** The record of a session's start date (kept so the system prompt survives a reload byte for byte). */
const sessionMetaKey = (sessionId: string) => `session-meta:v1:${sessionId}`;

/** The date a session started, stored on first use. Never rejects (storage failures fall back to today). */
async function sessionDate(store: KeyValueStore, sessionId: string, now: Date): Promise<string> {
  try {
    const meta = await store.get<{ date?: unknown }>(sessionMetaKey(sessionId));
    if (typeof meta?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(meta.date)) return meta.date;
    const date = today(now);
    await store.set(sessionMetaKey(sessionId), { date });
    return date;
  } catch {
    return today(now);
  }
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<AgentSession> {
  let settings: AgentSettings = { ...defaultSettings(), ...options.settings };
  // Without a given sandbox: the one the page asks for (?sandbox=, the setting, auto), with its saved files.
  const opened = options.sandbox ? undefined : await openSandbox(options.openSandbox);
  const sandbox = options.sandbox ?? (opened as NonNullable<typeof opened>).sandbox;
  const mcp = options.mcp === undefined ? createDefaultMcpManager() : (options.mcp ?? undefined);
  // MCP sampling runs on the session's model, and only for requests the user approved (the manager asks).
  mcp?.setSampler(
    createMcpSampler(
      (req, signal) =>
        createAnthropicClient({
          apiKey: currentApiKey(),
          baseURL: settings.baseURL,
          fetch: measuringFetch,
        }).messages.create(
          {
            model: settings.model,
            max_tokens: req.maxTokens,
            messages: req.messages,
            ...(req.system ? { system: req.system } : {}),
            ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
            ...(req.stopSequences ? { stop_sequences: req.stopSequences } : {}),
          },
          { signal },
        ),
      () => settings.maxTokens,
    ),
  );
  // ToolSearch names servers still connecting when nothing matches.
  // The skills announced with each prompt (and what Skill may grant).
  const skillCatalog = createSkillCatalog(() => options.skills ?? []);
  const baseTools = getAllBaseTools({
    toolSearch: { connectingServers: () => mcp?.connectingServers() ?? [] },
    ...(mcp ? { mcpResources: mcp } : {}),
    skills: skillCatalog,
    fetchProxy: () => settings.fetchProxy,
  });
  const embedRules = options.permissions?.rules;
  const permissions = new PermissionStore({
    embed: { ...embedRules, deny: [...(embedRules?.deny ?? []), ...(options.denyRules ?? [])] },
    storage: options.permissions?.storage,
    projectStorage: allowAlwaysStorage(options.permissions),
    knownTools: baseTools.map((t) => t.name),
  });
  await permissions.load();
  const canUseTool = createCanUseTool({
    getRules: () => permissions.rules(),
    getMode: () => settings.permissionMode,
  });
  // A blanket deny rule (any source, read at every request) removes the tool before the model sees it.
  const mcpTools = () =>
    getTools(permissions.blanketDenies(), [...(options.mcpTools ?? []), ...(mcp?.tools() ?? [])]);
  /** The pool of one request: MCP tools come and go between (and during) turns. */
  const currentTools = () => assembleToolPool(getTools(permissions.blanketDenies(), baseTools), mcpTools());
  let tools = currentTools();
  const sessionId = options.sessionId ?? crypto.randomUUID();
  const sessionStore = options.storage?.session ?? createDefaultStore('session');
  const schemaCache = await openPersistentSchemaCache(sessionStore, sessionId);
  const date = await sessionDate(sessionStore, sessionId, options.now?.() ?? new Date());
  const deferredTools = createDeferredToolsState(options.toolSearch ?? 'auto');
  const resultStore = createSpillStore({ kv: options.storage?.results ?? createDefaultStore('results') });
  void resultStore.evict().catch(() => {});
  const resultSpiller = createResultSpiller({ store: resultStore });
  // Long sessions: the context measured from real usage, the window per model, compaction, hooks, memory.
  let contextTracker = createContextTracker();
  const reportedWindows = new Map<string, Promise<number | null>>();
  const sessionHooks = createSessionHooks({
    sandbox,
    sessionId,
    cwd: () => sandbox.cwd(),
    permissionMode: () => settings.permissionMode,
  });
  for (const hook of options.hooks ?? []) sessionHooks.register(hook);
  let embeddedMemory: string | null = options.memory ?? null;
  /** SessionStart hooks run with the next prompt: a new conversation, a resumed one, or after a compaction. */
  let sessionStart: SessionStartSource | undefined = 'startup';
  /** Output of `!` lines, for the next prompt. */
  let shellNotes: TextBlockParam[] = [];
  const listeners = new Set<(e: SessionEvent) => void>();
  /** Files the user changed by hand since the last prompt (told to the model with the next one). */
  const userEdits = new Set<string>();
  let transcript: MessageParam[] = [];
  let running: Promise<void> | undefined;
  let queue: Promise<void> = Promise.resolve();
  // The app state tools keep (todo lists, the mode). The mode lives in the settings: a tool that sets
  // it here switches the session's mode, and the page is told.
  let appState = createAppState();
  const getAppState = (): AppState => ({ ...appState, permissionMode: settings.permissionMode });
  const setAppState = (fn: (prev: AppState) => AppState): void => {
    const next = fn(getAppState());
    appState = next;
    if (next.permissionMode && next.permissionMode !== settings.permissionMode) {
      settings = { ...settings, permissionMode: next.permissionMode };
      emit({ type: 'permission-mode', mode: next.permissionMode });
    }
    emit({ type: 'app-state', state: getAppState() });
  };
  let context: ToolUseContext = createToolUseContext({
    sandbox,
    resultStore,
    getAppState,
    setAppState,
    hooks: sessionHooks.runner,
    options: { tools, permissionMode: settings.permissionMode },
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

  // Project files that cannot be saved (storage full) are reported once per failure streak, never dropped.
  let storageFailing = false;
  opened?.persistence?.onStatus((status) => {
    if (status.state === 'error' && !storageFailing) {
      emit({
        type: 'error',
        error: { kind: 'unknown', message: status.error ?? 'Project files could not be saved.' },
      });
    }
    storageFailing = status.state === 'error' ? true : status.state === 'saved' ? false : storageFailing;
  });

  // Every model request passes here, so the usage meter can split tokens by the body's parts.
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  // The SDK's retries are announced with the wait it will take, for the page's countdown.
  const measuringFetch: typeof fetch = async (input, init) => {
    const sizes = requestSizes(init?.body);
    if (!sizes) return baseFetch(input, init);
    emit({ type: 'request-sent', sizes });
    const retryCount = Number(headerOf(init?.headers, 'x-stainless-retry-count') ?? 0) || 0;
    const announce = (status: number | undefined, headers?: Headers) => {
      const delayMs = plannedRetryDelay({ status, headers, retryCount });
      if (delayMs === undefined) return;
      emit({
        type: 'retry-wait',
        attempt: retryCount + 1,
        maxRetries: MODEL_MAX_RETRIES,
        delayMs,
        error: errorOfStatus(status),
      });
    };
    try {
      const response = await baseFetch(input, init);
      if (!response.ok) announce(response.status, response.headers);
      return response;
    } catch (err) {
      if (!init?.signal?.aborted) announce(undefined);
      throw err;
    }
  };

  /** The key requests carry: the user's, or the placeholder a proxy replaces. */
  function currentApiKey(): string {
    return settings.apiKey || (options.keyless || usesDevProxy(settings) ? PROXY_PLACEHOLDER_KEY : '');
  }

  const runTurn = async (prompt: string): Promise<void> => {
    const apiKey = currentApiKey();
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
    tools = currentTools();
    context = {
      ...context,
      abortController,
      // A skill's allowed tools last for the turn that loaded it.
      options: {
        ...context.options,
        tools,
        permissionMode: settings.permissionMode,
        allowedTools: undefined,
      },
    };
    // MCP: a /mcp__<server>__<prompt> command and @server:uri mentions are expanded into what is sent.
    let content: ContentBlockParam[] = [{ type: 'text', text: prompt }];
    if (mcp) {
      try {
        content = (await expandPrompt(mcp, prompt, abortController.signal)).content;
      } catch (err) {
        emit({
          type: 'error',
          error: { kind: 'invalid_request', message: err instanceof Error ? err.message : String(err) },
        });
        return;
      }
    }
    // Slash commands of the workspace, memory, hooks and @-mentioned files make the message sent.
    const prepared = await prepareTurn(prompt, content, {
      context,
      transcript,
      hooks: sessionHooks,
      mcp,
      embeddedMemory,
      sessionStart,
      emit,
    });
    if (!prepared.ok) {
      emit({ type: 'prompt-refused', prompt, reason: prepared.reason });
      return;
    }
    sessionStart = undefined;
    // What the sandbox noticed since the last turn (e.g. a preview page's errors) goes with the prompt,
    // and so do the instructions of MCP servers that connected since.
    const notes = [...sandbox.takeReminders(), ...(mcp?.takeReminders() ?? [])];
    // The skills, when they changed since the transcript last announced them.
    const skills = skillsAnnouncement(await skillCatalog.refresh(sandbox), transcript);
    if (skills) notes.push(skills);
    if (userEdits.size > 0) {
      notes.push(userEditsReminder([...userEdits]));
      userEdits.clear();
    }
    const reminders = notes.map((r) => ({
      type: 'text' as const,
      text: `<system-reminder>\n${r}\n</system-reminder>`,
    }));
    const shell = shellNotes;
    shellNotes = [];
    transcript = [...transcript, { role: 'user', content: [...reminders, ...shell, ...prepared.blocks] }];
    emit({ type: 'run-start', prompt, message: transcript[transcript.length - 1] });
    const client = createAnthropicClient({ apiKey, baseURL: settings.baseURL, fetch: measuringFetch });
    const systemPrompt = buildSystemPrompt({
      sandbox: sandbox.info(),
      root: sandbox.root,
      cwd: sandbox.root,
      date,
    });
    const gen = query({
      client,
      model: settings.model,
      maxTokens: settings.maxTokens,
      systemPrompt,
      messages: transcript,
      getTools: currentTools,
      context,
      schemaCache,
      deferredTools,
      resultSpiller,
      cacheTtl: options.cacheTtl ?? DEFAULT_CACHE_TTL,
      canUseTool,
      thinking: settings.thinkingBudget ? { budgetTokens: settings.thinkingBudget } : undefined,
      contextSettings: {
        contextWindow: (await windowOf(settings.model)).tokens,
        autoCompact: settings.autoCompact !== false,
        autoCompactRatio: settings.autoCompactRatio,
      },
      contextTracker,
    });
    let step = await gen.next();
    while (!step.done) {
      // "Allow always" at a prompt adds its rule to the session rules before the call runs.
      emit(recordAllowAlways(step.value, permissions));
      if (step.value.type === 'compaction-end') sessionStart = 'compact';
      step = await gen.next();
    }
    transcript = step.value.messages;
    context = step.value.context;
    emit({ type: 'run-end', transcriptLength: transcript.length });
  };

  /** The Models API's window for `model` (asked once per model), else the table's. Never rejects. */
  async function windowOf(model: string) {
    const apiKey =
      settings.apiKey || (options.keyless || usesDevProxy(settings) ? PROXY_PLACEHOLDER_KEY : '');
    // Without a key the API cannot be asked yet: the table answers until there is one.
    if (!apiKey) return contextWindowOf(model);
    const key = `${settings.baseURL}\n${model}`;
    if (!reportedWindows.has(key)) {
      const client = createAnthropicClient({
        apiKey,
        baseURL: settings.baseURL,
        fetch: options.fetch,
        maxRetries: 0,
        timeoutMs: 5_000,
      });
      reportedWindows.set(
        key,
        client.models.retrieve(model).then(
          (m) => m.max_input_tokens ?? null,
          () => null,
        ),
      );
    }
    return contextWindowOf(model, await reportedWindows.get(key));
  }

  /** /compact: the conversation summarized now, with the session's own tools, system and settings. */
  const compactNow = async (instructions?: string): Promise<CompactResult> => {
    const empty = nothingToCompact(transcript);
    if (empty) {
      emit({
        type: 'compaction-failed',
        trigger: 'manual',
        error: { kind: 'invalid_request', message: empty },
      });
      return { ok: false, message: empty };
    }
    const apiKey =
      settings.apiKey || (options.keyless || usesDevProxy(settings) ? PROXY_PLACEHOLDER_KEY : '');
    const abortController = new AbortController();
    context = { ...context, abortController };
    const measured = contextTracker.measured?.tokens;
    emit({ type: 'compaction-start', trigger: 'manual', tokensBefore: measured ?? 0 });
    const outcome = await compactConversation({
      client: createAnthropicClient({ apiKey, baseURL: settings.baseURL, fetch: measuringFetch }),
      model: settings.model,
      systemPrompt: buildSystemPrompt({
        sandbox: sandbox.info(),
        root: sandbox.root,
        cwd: sandbox.root,
        date,
      }),
      pool: currentTools(),
      schemaCache,
      deferral: deferredTools,
      cacheTtl: options.cacheTtl ?? DEFAULT_CACHE_TTL,
      thinking: settings.thinkingBudget ? { budgetTokens: settings.thinkingBudget } : undefined,
      messages: transcript,
      instructions,
      signal: abortController.signal,
    });
    if (!outcome.ok) {
      emit({ type: 'compaction-failed', trigger: 'manual', error: outcome.error });
      return { ok: false, message: outcome.error.message };
    }
    transcript = outcome.messages;
    contextTracker = createContextTracker();
    sessionStart = 'compact';
    emit({
      type: 'compaction-end',
      trigger: 'manual',
      summary: outcome.summary,
      summarized: outcome.summarized,
      tokensBefore: measured ?? outcome.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      usage: outcome.usage,
      model: outcome.model,
      messages: outcome.messages,
    });
    return { ok: true, summarized: outcome.summarized };
  };

  const session: AgentSession = {
    sandbox,
    hooks: sessionHooks,
    compact(instructions) {
      const run = queue.then(async () => {
        // Marks the session busy: prompts sent meanwhile wait in the queue, Esc interrupts the summary.
        running = run.then(() => undefined);
        try {
          return await compactNow(instructions);
        } catch (err) {
          const message = `Compaction failed: ${err instanceof Error ? err.message : String(err)}`;
          emit({ type: 'compaction-failed', trigger: 'manual', error: { kind: 'unknown', message } });
          return { ok: false as const, message };
        } finally {
          running = undefined;
        }
      });
      queue = run.then(() => undefined);
      return run;
    },
    async runShell(command) {
      const id = crypto.randomUUID();
      emit({ type: 'shell-start', id, command });
      let run: ShellRunResult;
      try {
        const r = await sandbox.exec(command, { origin: 'user', timeoutMs: BASH_DEFAULT_TIMEOUT_MS });
        run = {
          command,
          stdout: r.stdout,
          stderr: r.stderr,
          exitCode: r.exitCode,
          timedOut: r.timedOut,
          aborted: r.aborted,
        };
      } catch (err) {
        run = { command, stdout: '', stderr: err instanceof Error ? err.message : String(err), exitCode: 1 };
      }
      shellNotes.push(shellRunBlock(run));
      emit({ type: 'shell-end', id, run });
      return run;
    },
    listCommands: () => listSlashCommands(sandbox, mcp),
    contextWindow: (model) => windowOf(model ?? settings.model),
    setMemory(text) {
      embeddedMemory = typeof text === 'string' && text.trim() ? text : null;
    },
    ...(mcp ? { mcp } : {}),
    permissions,
    transcript: () => transcript,
    appState: getAppState,
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
    loadTranscript(messages) {
      if (running) return false;
      transcript = ensureToolResultPairing(messages);
      contextTracker = createContextTracker();
      sessionStart = transcript.length > 0 ? 'resume' : 'startup';
      // Another conversation: what this one read is not known to it (Edit/Write must read again).
      context = { ...context, readFileState: new Map() };
      // Its todo list is the one its last TodoWrite left.
      appState = { ...appState, todos: appStateFromTranscript(transcript).todos };
      emit({ type: 'app-state', state: getAppState() });
      return true;
    },
    async listModels(overrides) {
      const s = { ...settings, ...overrides };
      const apiKey = s.apiKey || (options.keyless || usesDevProxy(s) ? PROXY_PLACEHOLDER_KEY : '');
      const client = createAnthropicClient({
        apiKey,
        baseURL: s.baseURL,
        fetch: options.fetch,
        maxRetries: 0,
      });
      const models: ModelSummary[] = [];
      for await (const m of client.models.list({ limit: 100 })) {
        models.push({ id: m.id, displayName: m.display_name });
        if (models.length >= 200) break;
      }
      return models;
    },
    noteUserEdit(path) {
      if (typeof path === 'string' && path) userEdits.add(path);
    },
    flushProject: async () => {
      await opened?.persistence?.flush();
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
      if (options.mcp === undefined) await mcp?.dispose();
      await schemaCache.flush();
      await (opened ? opened.close() : sandbox.dispose());
    },
  };
  return session;
}
