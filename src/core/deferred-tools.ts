/**
 * Deferred tools: MCP tools (unless `alwaysLoad`) and built-ins with `shouldDefer` are not sent with
 * their schemas. Their names are announced in a `<system-reminder>` inside the messages (the first
 * announcement lists all, later ones give what was added or removed), so `tools` and `system` stay
 * byte-stable when MCP servers come and go. ToolSearch loads them:
 * - native mode: its result holds `tool_reference` blocks; the referenced ("discovered") tools are sent
 *   with `defer_loading: true` and the API expands each reference in place;
 * - portable mode (endpoints without tool_reference): its result carries the full schemas as text and
 *   the discovered tools are appended at the end of `tools`.
 * What was announced and what was discovered are read back from the transcript, so a restored
 * transcript gives the same requests. Deferral applies only while ToolSearch is in the pool.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type CachedToolSchema, type SchemaCache, toolToAPISchema } from './api-schema.ts';
import { TOOL_SEARCH_TOOL_NAME } from './constants.ts';
import {
  type ContentBlockParam,
  contentBlocks,
  type MessageParam,
  type ToolResultBlockParam,
} from './messages.ts';
import type { AnyTool } from './tool.ts';

/** How ToolSearch results reach the model. */
export type ToolSearchMode = 'native' | 'portable';
/** 'auto': native until the endpoint rejects tool_reference with a 400, then portable for the session. */
export type ToolSearchSetting = 'auto' | ToolSearchMode;

/** Per-session deferral state, shared by every query of the session. */
export interface DeferredToolsState {
  setting: ToolSearchSetting;
  /** The mode in effect. */
  mode: ToolSearchMode;
  /** Set when 'auto' switched to portable: the endpoint's error message. */
  switchedBecause?: string;
  /**
   * Definitions of discovered tools as last sent, by name. A discovered tool whose server left stays
   * defined from here, so old references still resolve and `tools` keeps its bytes.
   */
  definitions: Map<string, CachedToolSchema>;
}

export function createDeferredToolsState(setting: ToolSearchSetting = 'auto'): DeferredToolsState {
  return { setting, mode: setting === 'portable' ? 'portable' : 'native', definitions: new Map() };
}

/** True when `tool` is sent only after ToolSearch loads it: MCP tools unless alwaysLoad, and shouldDefer built-ins. */
export function isDeferredTool(
  tool: Pick<AnyTool, 'name' | 'alwaysLoad' | 'isMcp' | 'shouldDefer'>,
): boolean {
  if (tool.name === TOOL_SEARCH_TOOL_NAME || tool.alwaysLoad === true) return false;
  return tool.isMcp === true || tool.shouldDefer === true;
}

/** The pool split into tools sent with schemas and deferred tools. Nothing is deferred without ToolSearch. */
export function partitionPool(pool: readonly AnyTool[]): { loaded: AnyTool[]; deferred: AnyTool[] } {
  if (!pool.some((t) => t.name === TOOL_SEARCH_TOOL_NAME)) return { loaded: [...pool], deferred: [] };
  const loaded: AnyTool[] = [];
  const deferred: AnyTool[] = [];
  for (const tool of pool) (isDeferredTool(tool) ? deferred : loaded).push(tool);
  return { loaded, deferred };
}

// ---------------------------------------------------------------------------------------------------
// Announcements

const REMINDER_OPEN = '<system-reminder>';
const REMINDER_CLOSE = '</system-reminder>';
/** Heads the first announcement (every deferred tool). */
export const DEFERRED_TOOLS_HEADER =
  'These deferred tools can be loaded with ToolSearch. Only their names are known: call ToolSearch (e.g. "select:<name>", or keywords) to load a tool before calling it. MCP tools are listed by server: "mcp__<server>__: a, b" names mcp__<server>__a and mcp__<server>__b.';
/** Heads a delta of tools that became available. */
export const DEFERRED_TOOLS_ADDED_HEADER = 'More deferred tools can now be loaded with ToolSearch:';
/** Heads a delta of tools that went away. */
export const DEFERRED_TOOLS_REMOVED_HEADER =
  'These deferred tools are no longer available (their MCP server disconnected); do not call them:';
/** The header of the first announcement before names were grouped by server (still read back). */
const UNGROUPED_HEADER =
  'These deferred tools can be loaded with ToolSearch. Only their names are known: call ToolSearch (e.g. "select:<name>", or keywords) to load a tool before calling it.';

/** `mcp__<server>__: a, b` — one server's tools on one line (tool names never hold ", " or ": "). */
const GROUP_LINE = /^(mcp__.+?__): (.+)$/;
const MCP_NAME = /^(mcp__.+?__)(.+)$/;

/** The names one announcement line stands for: a server group, or one name (older transcripts, built-ins). */
function namesOfLine(line: string): string[] {
  const group = GROUP_LINE.exec(line);
  if (!group) return [line];
  return group[2].split(', ').map((tool) => `${group[1]}${tool}`);
}

/**
 * Announcement lines for `names` (sorted): MCP tools grouped by their `mcp__<server>__` prefix, one line
 * per server, in name order; other deferred tools one per line. 62 % of the bytes of one full name per
 * line on the 644-tool bench catalogue (bench/deferred-tokens.ts), and as unambiguous; deltas use the
 * same form, so earlier reminders keep their bytes.
 */
export function announcementLines(names: readonly string[]): string[] {
  const lines: string[] = [];
  let prefix: string | undefined;
  let tools: string[] = [];
  const flush = () => {
    if (prefix !== undefined) lines.push(`${prefix}: ${tools.join(', ')}`);
    prefix = undefined;
    tools = [];
  };
  for (const name of names) {
    const m = MCP_NAME.exec(name);
    if (!m) {
      flush();
      lines.push(name);
      continue;
    }
    if (m[1] !== prefix) flush();
    prefix = m[1];
    tools.push(m[2]);
  }
  flush();
  return lines;
}

/** The deferred tool names the transcript has announced so far (adds and removals replayed in order). */
export function announcedDeferredTools(messages: readonly MessageParam[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of contentBlocks(message)) {
      if (block.type !== 'text' || !block.text.startsWith(REMINDER_OPEN)) continue;
      let section: 'add' | 'remove' | undefined;
      for (const raw of block.text.split('\n')) {
        const line = raw.trim();
        if (
          line === DEFERRED_TOOLS_HEADER ||
          line === UNGROUPED_HEADER ||
          line === DEFERRED_TOOLS_ADDED_HEADER
        )
          section = 'add';
        else if (line === DEFERRED_TOOLS_REMOVED_HEADER) section = 'remove';
        else if (line === REMINDER_OPEN || line === REMINDER_CLOSE || line === '') continue;
        else if (section === 'add') for (const n of namesOfLine(line)) names.add(n);
        else if (section === 'remove') for (const n of namesOfLine(line)) names.delete(n);
      }
    }
  }
  return names;
}

/**
 * The reminder that brings the announced names in line with `current`, or null when nothing changed.
 * The first one lists every name; later ones list only what was added and what was removed (grouped by
 * server, see announcementLines).
 */
export function deferredToolsReminder(
  announced: ReadonlySet<string>,
  current: readonly string[],
): string | null {
  const now = new Set(current);
  const added = [...now].filter((n) => !announced.has(n)).sort();
  const removed = [...announced].filter((n) => !now.has(n)).sort();
  if (added.length === 0 && removed.length === 0) return null;
  const lines = [REMINDER_OPEN];
  if (announced.size === 0) lines.push(DEFERRED_TOOLS_HEADER, ...announcementLines(added));
  else {
    if (added.length) lines.push(DEFERRED_TOOLS_ADDED_HEADER, ...announcementLines(added));
    if (removed.length) lines.push(DEFERRED_TOOLS_REMOVED_HEADER, ...announcementLines(removed));
  }
  lines.push(REMINDER_CLOSE);
  return lines.join('\n');
}

/**
 * `messages` with a reminder appended to the last (user) message when the deferred tools of `pool`
 * differ from what the transcript announced; the same array otherwise. The reminder becomes part of the
 * transcript, so later requests repeat it byte for byte. Inputs are not mutated.
 */
export function withDeferredToolsAnnouncement(
  messages: readonly MessageParam[],
  pool: readonly AnyTool[],
): MessageParam[] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return messages as MessageParam[];
  const current = partitionPool(pool).deferred.map((t) => t.name);
  const announced = announcedDeferredTools(messages);
  if (current.length === 0 && announced.size === 0) return messages as MessageParam[];
  const reminder = deferredToolsReminder(announced, current);
  if (!reminder) return messages as MessageParam[];
  const out = messages.slice();
  out[out.length - 1] = { role: 'user', content: [...contentBlocks(last), { type: 'text', text: reminder }] };
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Discovery and the two result forms

const FUNCTIONS_OPEN = '<functions>';
const FUNCTION_LINE = /^<function>(.*)<\/function>$/gm;

/** Names in the `<function>` lines of a portable ToolSearch result. */
function portableNames(text: string): string[] {
  if (!text.includes(FUNCTIONS_OPEN)) return [];
  const names: string[] = [];
  for (const m of text.matchAll(FUNCTION_LINE)) {
    try {
      const parsed = JSON.parse(m[1]) as { name?: unknown };
      if (typeof parsed.name === 'string') names.push(parsed.name);
    } catch {
      // Not one of ours.
    }
  }
  return names;
}

function resultTexts(block: ToolResultBlockParam): string[] {
  if (typeof block.content === 'string') return [block.content];
  return (block.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
}

/**
 * Tools the transcript has loaded, in order of first discovery: every `tool_reference` in a tool_result,
 * and the `<function>` lines of portable ToolSearch results.
 */
export function discoveredToolNames(messages: readonly MessageParam[]): string[] {
  const seen = new Set<string>();
  const toolSearchUses = new Set<string>();
  for (const message of messages) {
    for (const block of contentBlocks(message)) {
      if (block.type === 'tool_use' && block.name === TOOL_SEARCH_TOOL_NAME) toolSearchUses.add(block.id);
      if (block.type !== 'tool_result') continue;
      if (Array.isArray(block.content)) {
        for (const item of block.content as unknown as Record<string, unknown>[]) {
          if (item.type === 'tool_reference' && typeof item.tool_name === 'string') seen.add(item.tool_name);
        }
      }
      if (toolSearchUses.has(block.tool_use_id))
        for (const t of resultTexts(block)) for (const n of portableNames(t)) seen.add(n);
    }
  }
  return [...seen];
}

/** A tool_reference block (the SDK types of this version do not list it among tool_result content). */
export function toolReferenceBlock(name: string): ContentBlockParam {
  return { type: 'tool_reference', tool_name: name } as unknown as ContentBlockParam;
}

function referencedNames(block: ToolResultBlockParam): string[] {
  if (!Array.isArray(block.content)) return [];
  return (block.content as unknown as Record<string, unknown>[]).flatMap((item) =>
    item.type === 'tool_reference' && typeof item.tool_name === 'string' ? [item.tool_name] : [],
  );
}

/** Full schemas as portable text: one `<function>` JSON line per tool, as in the tool list. */
export function renderPortableFunctions(definitions: readonly CachedToolSchema[]): string {
  const lines = definitions.map(
    (d) =>
      `<function>${JSON.stringify({ description: d.description, name: d.name, parameters: d.input_schema })}</function>`,
  );
  return [FUNCTIONS_OPEN, ...lines, '</functions>'].join('\n');
}

/** Looks a tool's definition up: the pool through the schema cache, else one remembered in the state. */
export type DefinitionResolver = (name: string) => CachedToolSchema | undefined;

export function definitionResolver(
  pool: readonly AnyTool[],
  cache: SchemaCache,
  state: DeferredToolsState,
): DefinitionResolver {
  return (name) => {
    const tool = pool.find((t) => t.name === name);
    if (tool) {
      const { name: n, description, input_schema } = toolToAPISchema(tool, cache);
      return {
        name: n,
        description: description ?? '',
        input_schema: input_schema as CachedToolSchema['input_schema'],
      };
    }
    return state.definitions.get(name);
  };
}

/**
 * A tool_result whose tool_reference blocks are replaced by portable text (the full schemas). Blocks
 * without references come back unchanged (the same object).
 */
export function referencesToPortable(
  block: ToolResultBlockParam,
  resolve: DefinitionResolver,
): ToolResultBlockParam {
  const names = referencedNames(block);
  if (names.length === 0) return block;
  const defs = names.map(resolve).filter((d): d is CachedToolSchema => d !== undefined);
  const missing = names.filter((n) => !defs.some((d) => d.name === n));
  const parts = [
    `Loaded ${defs.length} tool${defs.length === 1 ? '' : 's'}. They are now defined at the end of your tool list; call them directly.`,
    renderPortableFunctions(defs),
  ];
  if (missing.length) parts.push(`No longer available: ${missing.join(', ')}`);
  const others = (block.content as ContentBlockParam[]).filter(
    (b) => (b as { type: string }).type !== 'tool_reference',
  );
  return { ...block, content: [{ type: 'text', text: parts.join('\n') }, ...(others as [])] };
}

/** Applies `fn` to every tool_result of the transcript; messages without a change keep their identity. */
export function mapToolResults(
  messages: readonly MessageParam[],
  fn: (block: ToolResultBlockParam) => ToolResultBlockParam,
): MessageParam[] {
  return messages.map((message) => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    let changed = false;
    const content = message.content.map((b) => {
      if (b.type !== 'tool_result') return b;
      const next = fn(b);
      if (next !== b) changed = true;
      return next;
    });
    return changed ? { ...message, content } : message;
  });
}

/**
 * A tool_result whose references to tools in `undefinedNames` become a text note, so the API does not
 * reject the request (a restored transcript referring to a tool whose definition is lost).
 */
export function dropUnresolvableReferences(
  block: ToolResultBlockParam,
  isDefined: (name: string) => boolean,
): ToolResultBlockParam {
  const names = referencedNames(block);
  if (names.every(isDefined)) return block;
  const content = (block.content as unknown as Record<string, unknown>[]).map((item) =>
    item.type === 'tool_reference' && !isDefined(String(item.tool_name))
      ? { type: 'text', text: `(Tool ${String(item.tool_name)} was loaded here; it is no longer available.)` }
      : item,
  );
  return { ...block, content: content as unknown as ToolResultBlockParam['content'] };
}

/** True for a 400 from an endpoint that does not take tool_reference blocks or defer_loading. */
export function isToolReferenceRejection(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { status?: unknown; message?: unknown; error?: { error?: { message?: unknown } } };
  if (e.status !== 400) return false;
  const text = `${String(e.error?.error?.message ?? '')} ${String(e.message ?? '')}`;
  // The endpoint does not know the blocks, or refuses the beta header they need (some gateways).
  return /tool_reference|defer_loading|anthropic-beta|advanced-tool-use/.test(text);
}

/** What the Usage panel says about the session's ToolSearch mode. */
export interface ToolSearchModeInfo {
  mode: ToolSearchMode;
  /** One sentence: why the session is in this mode. */
  why: string;
}

/** The session's mode and the reason for it, in words for the UI. Never throws. */
export function describeToolSearchMode(
  state: Pick<DeferredToolsState, 'setting' | 'mode' | 'switchedBecause'>,
): ToolSearchModeInfo {
  if (state.mode === 'native') {
    return {
      mode: 'native',
      why:
        state.setting === 'native'
          ? 'Set to native: loaded tools are sent as tool_reference blocks with defer_loading (beta advanced-tool-use-2025-11-20).'
          : 'The endpoint takes tool_reference blocks and defer_loading (beta advanced-tool-use-2025-11-20); it falls back to portable if it ever refuses them.',
    };
  }
  return {
    mode: 'portable',
    why:
      state.setting === 'portable'
        ? 'Set to portable: loaded tools are sent as full schemas in the ToolSearch result and at the end of the tool list.'
        : `The endpoint refused tool search (${state.switchedBecause ?? 'a 400 on tool_reference or defer_loading'}), so loaded tools are sent as full schemas.`,
  };
}

/** Marks every definition a request sends for a discovered tool, so it can be re-sent once its tool is gone. */
export function rememberDefinitions(state: DeferredToolsState, definitions: readonly Anthropic.Tool[]): void {
  for (const d of definitions) {
    state.definitions.set(d.name, {
      name: d.name,
      description: d.description ?? '',
      input_schema: d.input_schema as CachedToolSchema['input_schema'],
    });
  }
}
