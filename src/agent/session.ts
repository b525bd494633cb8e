/**
 * The agent session: transcript, sandbox, tool pool, schema cache and model client, wired to the loop.
 * The UI and the embed API drive it through the AgentSession interface (types.ts). Its parts live
 * beside it: settings and models (session-settings.ts), the request meter (request-meter.ts), the tool
 * pool (session-tools.ts), turns and /compact (session-turn.ts), the options (session-options.ts).
 */
import { openPersistentSchemaCache } from '../core/api-schema.ts';
import { createContextTracker } from '../core/compaction/index.ts';
import { BASH_DEFAULT_TIMEOUT_MS } from '../core/constants.ts';
import { type AppState, createAppState, createToolUseContext } from '../core/context.ts';
import { createDeferredToolsState, describeToolSearchMode } from '../core/deferred-tools.ts';
import { messageOf } from '../core/errors.ts';
import { ensureToolResultPairing } from '../core/messages.ts';
import { createDefaultStore } from '../core/storage.ts';
import { createResultSpiller, createSpillStore } from '../core/tool-results.ts';
import { createDefaultMcpManager } from '../mcp/index.ts';
import { openSandbox } from '../sandbox/select.ts';
import { appStateFromTranscript } from './app-state.ts';
import { followBackgroundViews } from './background-views.ts';
import { createSessionHooks } from './habits/session-hooks.ts';
import { shellRunBlock } from './habits/shell-mode.ts';
import { defaultModelFetch } from './off-thread-fetch.ts';
import { createMeasuringFetch } from './request-meter.ts';
import { type CreateAgentSessionOptions, sessionDate } from './session-options.ts';
import { apiKeyFor, createWindowLookup, defaultSettings, listModels } from './session-settings.ts';
import { createSessionTools } from './session-tools.ts';
import { compactNow, runTurn, type SessionState, type TurnDeps } from './session-turn.ts';
import { listSlashCommands } from './slash/list.ts';
import type { AgentSession, SessionEvent, ShellRunResult } from './types.ts';

export { requestSizes } from './request-meter.ts';
export type { CreateAgentSessionOptions } from './session-options.ts';
export { defaultSettings, usesDevProxy } from './session-settings.ts';
export { userEditsReminder } from './session-turn.ts';

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<AgentSession> {
  const initialSettings = { ...defaultSettings(), ...options.settings };
  // Without a given sandbox: the one the page asks for (?sandbox=, the setting, auto), with its saved files.
  const opened = options.sandbox ? undefined : await openSandbox(options.openSandbox);
  const sandbox = options.sandbox ?? (opened as NonNullable<typeof opened>).sandbox;
  const mcp = options.mcp === undefined ? createDefaultMcpManager() : (options.mcp ?? undefined);
  const listeners = new Set<(e: SessionEvent) => void>();
  const send = (event: SessionEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        console.error('tabcode: a session listener threw', err);
      }
    }
  };
  // The cards of background commands follow them (output, end), from the call's result on.
  const backgroundViews = followBackgroundViews(sandbox, send);
  const emit = (event: SessionEvent) => {
    send(event);
    backgroundViews.see(event);
  };
  // Every model request passes here, so the usage meter can split tokens by the body's parts.
  // Sent from a worker where there is one: a large body would hold the page while fetch encodes it.
  const baseFetch: typeof fetch = options.fetch ?? defaultModelFetch();
  const measuringFetch = createMeasuringFetch(baseFetch, emit);
  // These read `state` (declared below) only when called: by requests and tools, after creation.
  const getSettings = () => state.settings;
  /** The key requests carry: the user's, or the placeholder a proxy replaces. */
  const currentApiKey = () => apiKeyFor(state.settings, options.keyless);
  const tools = await createSessionTools(options, mcp, getSettings, {
    apiKey: currentApiKey,
    fetch: measuringFetch,
  });
  const { permissions } = tools;
  const sessionId = options.sessionId ?? crypto.randomUUID();
  const sessionStore = options.storage?.session ?? createDefaultStore('session');
  const schemaCache = await openPersistentSchemaCache(sessionStore, sessionId);
  const date = await sessionDate(sessionStore, sessionId, options.now?.() ?? new Date());
  const resultStore = createSpillStore({
    kv: options.storage?.results ?? createDefaultStore('results'),
    sessionId,
  });
  void resultStore.evict().catch(() => {});
  // Long sessions: the context measured from real usage, the window per model, compaction, hooks, memory.
  const windowOf = createWindowLookup(getSettings, options.keyless, options.fetch);
  const sessionHooks = createSessionHooks({
    sandbox,
    sessionId,
    cwd: () => sandbox.cwd(),
    permissionMode: () => state.settings.permissionMode,
  });
  for (const hook of options.hooks ?? []) sessionHooks.register(hook);
  let running: Promise<void> | undefined;
  let queue: Promise<void> = Promise.resolve();
  // The app state tools keep (todo lists, the mode). The mode lives in the settings: a tool that sets
  // it here switches the session's mode, and the page is told.
  let appState = createAppState();
  const getAppState = (): AppState => ({ ...appState, permissionMode: state.settings.permissionMode });
  const setAppState = (fn: (prev: AppState) => AppState): void => {
    const next = fn(getAppState());
    appState = next;
    if (next.permissionMode && next.permissionMode !== state.settings.permissionMode) {
      state.settings = { ...state.settings, permissionMode: next.permissionMode };
      emit({ type: 'permission-mode', mode: next.permissionMode });
    }
    emit({ type: 'app-state', state: getAppState() });
  };
  const state: SessionState = {
    settings: initialSettings,
    context: createToolUseContext({
      sandbox,
      resultStore,
      getAppState,
      setAppState,
      hooks: sessionHooks.runner,
      // `state` is not made yet: the first pool reads the initial settings.
      options: { tools: tools.currentTools(initialSettings), permissionMode: initialSettings.permissionMode },
    }),
    transcript: [],
    contextTracker: createContextTracker(),
    sessionStart: 'startup',
    shellNotes: [],
    embeddedMemory: options.memory ?? null,
    userEdits: new Set(),
  };
  const deps: TurnDeps = {
    sandbox,
    mcp,
    tools,
    hooks: sessionHooks,
    schemaCache,
    deferredTools: createDeferredToolsState(options.toolSearch ?? 'auto'),
    resultSpiller: createResultSpiller({ store: resultStore }),
    date,
    cacheTtl: options.cacheTtl,
    apiKey: currentApiKey,
    fetch: measuringFetch,
    windowOf,
    emit,
  };

  // Project files that cannot be saved (storage full) are reported once per failure streak, never dropped.
  // Not as a turn's `error`: that would end the reply streaming at the time in the page's view.
  let storageFailing = false;
  opened?.persistence?.onStatus((status) => {
    if (status.state === 'error' && !storageFailing) {
      emit({ type: 'project-save', ok: false, message: status.error ?? 'Project files could not be saved.' });
    }
    if (status.state === 'saved' && storageFailing) emit({ type: 'project-save', ok: true });
    storageFailing = status.state === 'error' ? true : status.state === 'saved' ? false : storageFailing;
  });

  const session: AgentSession = {
    sandbox,
    hooks: sessionHooks,
    compact(instructions) {
      const run = queue.then(async () => {
        // Marks the session busy: prompts sent meanwhile wait in the queue, Esc interrupts the summary.
        running = run.then(() => undefined);
        try {
          return await compactNow(state, deps, instructions);
        } catch (err) {
          const message = `Compaction failed: ${messageOf(err)}`;
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
        const r = await sandbox.exec(command, {
          origin: 'user',
          timeoutMs: BASH_DEFAULT_TIMEOUT_MS,
          onOutput: (text, stream) => emit({ type: 'shell-output', id, stream, text }),
        });
        run = {
          command,
          stdout: r.stdout,
          stderr: r.stderr,
          exitCode: r.exitCode,
          timedOut: r.timedOut,
          aborted: r.aborted,
        };
      } catch (err) {
        run = { command, stdout: '', stderr: messageOf(err), exitCode: 1 };
      }
      state.shellNotes.push(shellRunBlock(run));
      emit({ type: 'shell-end', id, run });
      return run;
    },
    listCommands: () => listSlashCommands(sandbox, mcp),
    contextWindow: (model) => windowOf(model ?? state.settings.model),
    toolSearchMode: () => describeToolSearchMode(deps.deferredTools),
    setMemory(text) {
      state.embeddedMemory = typeof text === 'string' && text.trim() ? text : null;
    },
    ...(mcp ? { mcp } : {}),
    permissions,
    transcript: () => state.transcript,
    appState: getAppState,
    settings: () => state.settings,
    updateSettings(patch) {
      state.settings = { ...state.settings, ...patch };
    },
    send(prompt) {
      const run = queue.then(async () => {
        running = run;
        try {
          await runTurn(state, deps, prompt);
        } catch (err) {
          emit({ type: 'error', error: { kind: 'unknown', message: `Unexpected error: ${String(err)}` } });
        } finally {
          running = undefined;
        }
      });
      queue = run;
      return run;
    },
    loadTranscript(messages, shellRuns = []) {
      if (running) return false;
      state.transcript = ensureToolResultPairing(messages);
      // The `!` runs waiting for a prompt are this conversation's (another one's never carry over).
      state.shellNotes = shellRuns.map(shellRunBlock);
      state.contextTracker = createContextTracker();
      state.sessionStart = state.transcript.length > 0 ? 'resume' : 'startup';
      // Another conversation: what this one read is not known to it (Edit/Write must read again).
      state.context = { ...state.context, readFileState: new Map() };
      // Its todo list is the one its last TodoWrite left.
      appState = { ...appState, todos: appStateFromTranscript(state.transcript).todos };
      backgroundViews.adopt(state.transcript);
      emit({ type: 'app-state', state: getAppState() });
      return true;
    },
    listModels: (overrides) =>
      listModels({ ...state.settings, ...overrides }, options.keyless, options.fetch),
    noteUserEdit(path) {
      if (typeof path === 'string' && path) state.userEdits.add(path);
    },
    flushProject: async () => {
      await opened?.persistence?.flush();
    },
    reloadProject: async () => {
      await opened?.persistence?.reload();
    },
    interrupt() {
      if (running) state.context.abortController.abort();
    },
    isRunning: () => running !== undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      state.context.abortController.abort();
      backgroundViews.dispose();
      listeners.clear();
      if (options.mcp === undefined) await mcp?.dispose();
      await schemaCache.flush();
      await (opened ? opened.close() : sandbox.dispose());
    },
  };
  return session;
}
