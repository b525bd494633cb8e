/**
 * One turn of a session (the prompt prepared, reminders joined, `query()` run to its end) and /compact.
 * Both read and write the session's mutable state (`SessionState`) that `createAgentSession` owns.
 */
import type { PersistentSchemaCache } from '../core/api-schema.ts';
import {
  type ContextTracker,
  compactConversation,
  createContextTracker,
  nothingToCompact,
} from '../core/compaction/index.ts';
import { DEFAULT_CACHE_TTL } from '../core/constants.ts';
import type { ToolUseContext } from '../core/context.ts';
import type { DeferredToolsState } from '../core/deferred-tools.ts';
import { messageOf } from '../core/errors.ts';
import type { QueryError } from '../core/events.ts';
import type { SessionStartSource } from '../core/hooks/types.ts';
import { createYielder } from '../core/main-thread-yield.ts';
import type { ContentBlockParam, MessageParam, TextBlockParam } from '../core/messages.ts';
import { createAnthropicClient } from '../core/model/anthropic.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import { recordAllowAlways } from '../core/permissions/can-use-tool.ts';
import { query } from '../core/query.ts';
import { buildSystemPrompt } from '../core/system-prompt.ts';
import type { ResultSpiller } from '../core/tool-results.ts';
import { expandPrompt, type McpManager } from '../mcp/index.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { skillsAnnouncement } from '../tools/skill/skills.ts';
import type { SessionHooks } from './habits/session-hooks.ts';
import { prepareTurn } from './habits/turn.ts';
import type { SessionTools } from './session-tools.ts';
import type { AgentSettings, CompactResult, SessionEvent } from './types.ts';

/** Most paths a "the user changed these files" reminder names. */
const MAX_USER_EDITS_NAMED = 20;

/** The note to the model about files the user changed by hand (a system reminder with the prompt). */
export function userEditsReminder(paths: readonly string[]): string {
  const named = paths.slice(0, MAX_USER_EDITS_NAMED).join(', ');
  const more = paths.length > MAX_USER_EDITS_NAMED ? ` and ${paths.length - MAX_USER_EDITS_NAMED} more` : '';
  return `The user changed these files by hand since your last turn: ${named}${more}. What you read of them before may be out of date: Read them again before you edit them.`;
}

/** What a session changes as it goes (owned by `createAgentSession`, written by turns and /compact). */
export interface SessionState {
  settings: AgentSettings;
  context: ToolUseContext;
  transcript: MessageParam[];
  contextTracker: ContextTracker;
  /** SessionStart hooks run with the next prompt: a new conversation, a resumed one, or after a compaction. */
  sessionStart: SessionStartSource | undefined;
  /** Output of `!` lines, for the next prompt. */
  shellNotes: TextBlockParam[];
  /** Project memory the host supplied (beside the workspace's CLAUDE.md). */
  embeddedMemory: string | null;
  /** Files the user changed by hand since the last prompt (told to the model with the next one). */
  readonly userEdits: Set<string>;
}

/** What turns and /compact use and never change. */
export interface TurnDeps {
  sandbox: Sandbox;
  mcp: McpManager | undefined;
  tools: SessionTools;
  hooks: SessionHooks;
  schemaCache: PersistentSchemaCache;
  deferredTools: DeferredToolsState;
  resultSpiller: ResultSpiller;
  /** The session start date (the system prompt's, kept byte for byte). */
  date: string;
  cacheTtl: '5m' | '1h' | undefined;
  /** The key requests carry now ('' when none is set). */
  apiKey: () => string;
  /** The measuring fetch every model request goes through. */
  fetch: typeof fetch;
  windowOf: (model: string) => Promise<ContextWindow>;
  emit: (event: SessionEvent) => void;
}

function systemPromptOf(deps: TurnDeps): string {
  const { sandbox } = deps;
  return buildSystemPrompt({
    sandbox: sandbox.info(),
    root: sandbox.root,
    cwd: sandbox.root,
    date: deps.date,
  });
}

const thinkingOf = (settings: AgentSettings) =>
  settings.thinkingBudget ? { budgetTokens: settings.thinkingBudget } : undefined;

/**
 * Runs one prompt to the end of its turn. Problems the user can act on (no key, a refused prompt, a bad
 * MCP prompt) are emitted as events and end the turn; rejects only on an unexpected error.
 */
export async function runTurn(state: SessionState, deps: TurnDeps, prompt: string): Promise<void> {
  const { emit, sandbox, mcp } = deps;
  const apiKey = deps.apiKey();
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
  state.context = {
    ...state.context,
    abortController,
    // A skill's allowed tools last for the turn that loaded it.
    options: {
      ...state.context.options,
      tools: deps.tools.currentTools(),
      permissionMode: state.settings.permissionMode,
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
        error: { kind: 'invalid_request', message: messageOf(err) },
      });
      return;
    }
  }
  // Slash commands of the workspace, memory, hooks and @-mentioned files make the message sent.
  const prepared = await prepareTurn(prompt, content, {
    context: state.context,
    transcript: state.transcript,
    hooks: deps.hooks,
    mcp,
    embeddedMemory: state.embeddedMemory,
    sessionStart: state.sessionStart,
    emit,
  });
  if (!prepared.ok) {
    emit({ type: 'prompt-refused', prompt, reason: prepared.reason });
    return;
  }
  state.sessionStart = undefined;
  // What the sandbox noticed since the last turn (e.g. a preview page's errors) goes with the prompt,
  // and so do the instructions of MCP servers that connected since.
  const notes = [...sandbox.takeReminders(), ...(mcp?.takeReminders() ?? [])];
  // The skills, when they changed since the transcript last announced them.
  const skills = skillsAnnouncement(await deps.tools.skillCatalog.refresh(sandbox), state.transcript);
  if (skills) notes.push(skills);
  if (state.userEdits.size > 0) {
    notes.push(userEditsReminder([...state.userEdits]));
    state.userEdits.clear();
  }
  const reminders = notes.map((r) => ({
    type: 'text' as const,
    text: `<system-reminder>\n${r}\n</system-reminder>`,
  }));
  const shell = state.shellNotes;
  state.shellNotes = [];
  const promptMessage: MessageParam = { role: 'user', content: [...reminders, ...shell, ...prepared.blocks] };
  state.transcript = [...state.transcript, promptMessage];
  emit({ type: 'run-start', prompt, message: state.transcript[state.transcript.length - 1] });
  const gen = query({
    client: createAnthropicClient({ apiKey, baseURL: state.settings.baseURL, fetch: deps.fetch }),
    model: state.settings.model,
    maxTokens: state.settings.maxTokens,
    systemPrompt: systemPromptOf(deps),
    messages: state.transcript,
    getTools: deps.tools.currentTools,
    context: state.context,
    schemaCache: deps.schemaCache,
    deferredTools: deps.deferredTools,
    resultSpiller: deps.resultSpiller,
    cacheTtl: deps.cacheTtl ?? DEFAULT_CACHE_TTL,
    canUseTool: deps.tools.canUseTool,
    thinking: thinkingOf(state.settings),
    contextSettings: {
      contextWindow: (await deps.windowOf(state.settings.model)).tokens,
      autoCompact: state.settings.autoCompact !== false,
      autoCompactRatio: state.settings.autoCompactRatio,
    },
    contextTracker: state.contextTracker,
  });
  // The generator is pulled from here, so a pause here pauses the whole chain (stream parsing, the
  // loop, the page's reducers): a buffered reply is handled in tasks of YIELD_BUDGET_MS, not one.
  const pause = createYielder();
  /** The turn's last error, and whether any reply came (a refusal before one gives the prompt back). */
  let lastError: QueryError | undefined;
  let replied = false;
  let step = await gen.next();
  while (!step.done) {
    // "Allow always" at a prompt adds its rule to the session rules before the call runs.
    emit(recordAllowAlways(step.value, deps.tools.permissions));
    if (step.value.type === 'compaction-end') state.sessionStart = 'compact';
    if (step.value.type === 'error') lastError = step.value.error;
    if (step.value.type === 'message-end') replied = true;
    await pause();
    step = await gen.next();
  }
  state.transcript = step.value.messages;
  state.context = step.value.context;
  if (step.value.reason === 'error' && !replied && refusedPrompt(lastError)) {
    // The API refused the prompt itself (over the window even after compaction, a file it cannot read)
    // or the key: kept, it would go out with every later prompt (and the session could never send again)
    // while the box is empty. So it is taken out and given back to the prompt box; what it carried for
    // the model waits for the next one.
    const without = withoutPrompt(state.transcript, promptMessage);
    if (without) {
      state.transcript = without;
      state.shellNotes = [...shell, ...state.shellNotes];
      emit({ type: 'prompt-returned', prompt, reason: lastError.message });
    }
  }
  emit({ type: 'run-end', transcriptLength: state.transcript.length });
}

/**
 * An error that refused the prompt before any reply, so the prompt goes back to the box: the request
 * itself (too long, a bad file) or the key (401/403: the prompt is sent again once Settings has one).
 */
const refusedPrompt = (error: QueryError | undefined): error is QueryError =>
  error?.kind === 'invalid_request' || error?.kind === 'auth';

/**
 * The transcript without the turn's prompt: the blocks of `prompt` taken out of the last user message,
 * where they are one after another (the loop may have put a note after them, such as the deferred tools'
 * announcement, and a compaction this turn may have joined them to its summary; the blocks are the same
 * objects or equal ones); the message dropped when nothing else is in it. Undefined when the last message
 * does not hold them (the turn went further than its prompt). Never throws.
 */
export function withoutPrompt(
  messages: readonly MessageParam[],
  prompt: MessageParam,
): MessageParam[] | undefined {
  const last = messages[messages.length - 1];
  const blocks = typeof prompt.content === 'string' ? [] : prompt.content;
  if (last?.role !== 'user' || typeof last.content === 'string' || blocks.length === 0) return undefined;
  const content = last.content;
  const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
  for (let from = content.length - blocks.length; from >= 0; from--) {
    if (!blocks.every((b, i) => same(content[from + i], b))) continue;
    const rest = [...content.slice(0, from), ...content.slice(from + blocks.length)];
    const out = messages.slice(0, -1);
    if (rest.length > 0) out.push({ ...last, content: rest });
    return out;
  }
  return undefined;
}

/**
 * /compact: the conversation summarized now, with the session's own tools, system and settings. A
 * failure (nothing to compact, the request failed or was interrupted) leaves the transcript as it was
 * and is emitted and returned; rejects only on an unexpected error.
 */
export async function compactNow(
  state: SessionState,
  deps: TurnDeps,
  instructions?: string,
): Promise<CompactResult> {
  const { emit } = deps;
  const empty = nothingToCompact(state.transcript);
  if (empty) {
    emit({
      type: 'compaction-failed',
      trigger: 'manual',
      error: { kind: 'invalid_request', message: empty },
    });
    return { ok: false, message: empty };
  }
  const abortController = new AbortController();
  state.context = { ...state.context, abortController };
  const measured = state.contextTracker.measured?.tokens;
  emit({ type: 'compaction-start', trigger: 'manual', tokensBefore: measured ?? 0 });
  const outcome = await compactConversation({
    client: createAnthropicClient({
      apiKey: deps.apiKey(),
      baseURL: state.settings.baseURL,
      fetch: deps.fetch,
    }),
    model: state.settings.model,
    systemPrompt: systemPromptOf(deps),
    pool: deps.tools.currentTools(),
    schemaCache: deps.schemaCache,
    deferral: deps.deferredTools,
    cacheTtl: deps.cacheTtl ?? DEFAULT_CACHE_TTL,
    thinking: thinkingOf(state.settings),
    messages: state.transcript,
    instructions,
    signal: abortController.signal,
  });
  if (!outcome.ok) {
    emit({ type: 'compaction-failed', trigger: 'manual', error: outcome.error });
    return { ok: false, message: outcome.error.message };
  }
  state.transcript = outcome.messages;
  state.contextTracker = createContextTracker();
  state.sessionStart = 'compact';
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
}
