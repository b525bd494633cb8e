/**
 * Large tool results go to storage; the model sees a `<persisted-output>` block instead: the size, a
 * preview (PERSISTED_OUTPUT_PREVIEW_CHARS, cut at a newline past its middle) and how to read the rest
 * (Read on `/.tabcode/results/<tool_use_id>.txt`, paged with offset/limit).
 *
 * Two rules spill a result: its text is longer than its tool's `maxResultSizeChars` (default
 * DEFAULT_MAX_RESULT_SIZE_CHARS; Infinity never spills, as for Read), or the tool results of one user
 * message together pass MAX_TOOL_RESULTS_PER_MESSAGE_CHARS (the largest spillable ones go first).
 * Images, documents and any other non-text blocks count against MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS
 * (their base64 length): kept in order while they fit, the rest replaced by a note saying why.
 * Every decision is recorded in the ContentReplacementState and never changes: the bytes the model saw
 * are part of the cached prefix.
 *
 * Each spill gets an id of ours (SPILL_ID_PREFIX + random characters), never the endpoint's
 * tool_use_id, so a hostile or repeated tool_use id cannot overwrite another spill. The store is scoped
 * to one session: its keys carry the session id, a session reads only its own spills, and
 * removeSessionSpills() drops them with the session. It evicts by age and total size (over all
 * sessions), and remembers what it evicted so that reading one says so.
 */
import {
  DEFAULT_MAX_RESULT_SIZE_CHARS,
  MAX_TOOL_RESULTS_PER_MESSAGE_CHARS,
  MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS,
  PERSISTED_OUTPUT_PREVIEW_CHARS,
  RESULT_STORE_MAX_AGE_MS,
  RESULT_STORE_MAX_TOTAL_CHARS,
  SPILLED_RESULTS_DIR,
} from './constants.ts';
import type { ResultStore, ToolUseContext } from './context.ts';
import type { ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';
import type { KeyValueStore } from './storage.ts';
import { type AnyTool, findTool } from './tool.ts';

// ---------------------------------------------------------------------------------------------------
// Paths

const PATH_RE = /^\/\.tabcode\/results\/([A-Za-z0-9_-]{1,128})\.txt$/;

/** The virtual path Read serves a spilled result from. */
export function spilledResultPath(toolUseId: string): string {
  return `${SPILLED_RESULTS_DIR}/${toolUseId}.txt`;
}

/** The spill id of a spilled-result path, or undefined when `path` is not one. */
export function parseSpilledResultPath(path: string): string | undefined {
  return PATH_RE.exec(path.trim())?.[1];
}

/** The first spilled-result path named in `text` (a `<persisted-output>` block), if any. */
export function spilledPathIn(text: string): string | undefined {
  return /\/\.tabcode\/results\/[A-Za-z0-9_-]{1,128}\.txt/.exec(text)?.[0];
}

/** How our spill ids start; the rest is random (never an id the endpoint chose). */
export const SPILL_ID_PREFIX = 'spill_';

/** A new spill id: SPILL_ID_PREFIX and 20 random letters and digits. */
export function newSpillId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let id = SPILL_ID_PREFIX;
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
}

// ---------------------------------------------------------------------------------------------------
// Store

/** What a lookup found. */
export type SpillLookup =
  | { kind: 'found'; text: string; createdAt?: number }
  | { kind: 'evicted'; evictedAt: number; size: number }
  | { kind: 'missing' };

/** A ResultStore that evicts by age and size and remembers evictions. */
export interface SpillStore extends ResultStore {
  lookup(toolUseId: string): Promise<SpillLookup>;
  /** Drops results older than maxAgeMs, then the oldest while the total passes maxTotalChars. Returns how many. */
  evict(): Promise<number>;
}

interface SpillMeta {
  size: number;
  createdAt: number;
}
interface Tombstone {
  evictedAt: number;
  size: number;
}

export interface SpillStoreOptions {
  kv: KeyValueStore;
  /** The session the store belongs to: it reads and writes only that session's spills. */
  sessionId?: string;
  clock?: () => number;
  maxAgeMs?: number;
  maxTotalChars?: number;
}

const TEXT = 'result:';
const META = 'result-meta:';
const GONE = 'result-evicted:';

/** The key part of a session's spills (`''` for a store of no session). */
function scopeOf(sessionId: string | undefined): string {
  return sessionId ? `${encodeURIComponent(sessionId)}/` : '';
}

/** Deletes every spill (texts, sizes, eviction notes) of `sessionId` from `kv`. Rejects only when `kv` does. */
export async function removeSessionSpills(kv: KeyValueStore, sessionId: string): Promise<number> {
  const scope = scopeOf(sessionId);
  const keys = (await Promise.all([TEXT, META, GONE].map((p) => kv.keys(`${p}${scope}`)))).flat();
  if (keys.length > 0) await kv.delete(keys);
  return keys.filter((k) => k.startsWith(TEXT)).length;
}

/** A SpillStore over `kv`. Its methods reject only when `kv` does. */
export function createSpillStore(options: SpillStoreOptions): SpillStore {
  const { kv } = options;
  const scope = scopeOf(options.sessionId);
  const clock = options.clock ?? Date.now;
  const maxAge = options.maxAgeMs ?? RESULT_STORE_MAX_AGE_MS;
  const maxTotal = options.maxTotalChars ?? RESULT_STORE_MAX_TOTAL_CHARS;

  const evict = async (): Promise<number> => {
    const now = clock();
    const metaKeys = await kv.keys(META);
    const metas = await kv.getMany<SpillMeta>(metaKeys);
    const live = metaKeys
      .map((key, i) => ({ id: key.slice(META.length), meta: metas[i] }))
      .filter((e): e is { id: string; meta: SpillMeta } => e.meta !== undefined)
      .sort((a, b) => a.meta.createdAt - b.meta.createdAt);
    const drop: typeof live = [];
    let total = live.reduce((n, e) => n + e.meta.size, 0);
    for (const e of live) {
      if (now - e.meta.createdAt > maxAge || total > maxTotal) {
        drop.push(e);
        total -= e.meta.size;
      }
    }
    for (const e of drop) {
      await kv.set(`${GONE}${e.id}`, { evictedAt: now, size: e.meta.size } satisfies Tombstone);
      await kv.delete([`${TEXT}${e.id}`, `${META}${e.id}`]);
    }
    // Tombstones are small, but not kept forever.
    const goneKeys = await kv.keys(GONE);
    const tombs = await kv.getMany<Tombstone>(goneKeys);
    const stale = goneKeys.filter((_, i) => (tombs[i]?.evictedAt ?? 0) < now - 4 * maxAge);
    if (stale.length) await kv.delete(stale);
    return drop.length;
  };

  return {
    async put(id, text) {
      const key = `${scope}${id}`;
      await kv.set(`${TEXT}${key}`, text);
      await kv.set(`${META}${key}`, { size: text.length, createdAt: clock() } satisfies SpillMeta);
      await kv.delete([`${GONE}${key}`]);
      await evict();
    },
    get: (id) => kv.get<string>(`${TEXT}${scope}${id}`),
    async lookup(id) {
      const key = `${scope}${id}`;
      const [text, meta, gone] = await kv.getMany<unknown>([
        `${TEXT}${key}`,
        `${META}${key}`,
        `${GONE}${key}`,
      ]);
      if (typeof text === 'string') return { kind: 'found', text, createdAt: (meta as SpillMeta)?.createdAt };
      if (gone) return { kind: 'evicted', ...(gone as Tombstone) };
      return { kind: 'missing' };
    },
    evict,
  };
}

/** Looks a spilled result up in any ResultStore (a plain one cannot tell evicted from missing). */
export async function lookupSpilledResult(
  store: ResultStore | undefined,
  toolUseId: string,
): Promise<SpillLookup> {
  if (!store) return { kind: 'missing' };
  if ('lookup' in store && typeof (store as SpillStore).lookup === 'function') {
    return (store as SpillStore).lookup(toolUseId);
  }
  const text = await store.get(toolUseId);
  return text === undefined ? { kind: 'missing' } : { kind: 'found', text };
}

// ---------------------------------------------------------------------------------------------------
// Replacement text

/** Characters of text in a result (images and other blocks do not count). */
export function resultTextSize(block: ToolResultBlockParam): number {
  return resultText(block).length;
}

/** The text of a result: a string content, or its text blocks joined by newlines. */
export function resultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/** The first `max` characters, cut at the last newline when one lies past the middle. */
export function previewOf(text: string, max = PERSISTED_OUTPUT_PREVIEW_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return cut > max / 2 ? text.slice(0, cut) : text.slice(0, max);
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The `<persisted-output>` block the model sees for a spilled result. */
export function persistedOutputText(toolUseId: string, text: string): string {
  const path = spilledResultPath(toolUseId);
  const lines = text.length === 0 ? 0 : text.split('\n').length;
  const preview = previewOf(text);
  return [
    '<persisted-output>',
    `Output too large (${fmt(text.length)} characters, ${fmt(lines)} lines), so it was saved to ${path}.`,
    `Read the rest with the Read tool: file_path "${path}", with offset and limit (line numbers) to page through it.`,
    '',
    `Preview (first ${fmt(preview.length)} characters):`,
    preview,
    '</persisted-output>',
  ].join('\n');
}

/** `block` with its text replaced by `text` (images and other blocks kept after it). */
function withText(block: ToolResultBlockParam, text: string): ToolResultBlockParam {
  if (typeof block.content === 'string' || block.content === undefined) return { ...block, content: text };
  const others = block.content.filter((b) => b.type !== 'text');
  return others.length
    ? { ...block, content: [{ type: 'text', text }, ...others] }
    : { ...block, content: text };
}

// ---------------------------------------------------------------------------------------------------
// Images and documents

type ContentBlock = Exclude<ToolResultBlockParam['content'], string | undefined>[number];

/** Characters a non-text block adds to every request: its data (base64 or text), else its JSON. */
function mediaChars(b: ContentBlock): number {
  if (b.type === 'text') return 0;
  const source = (b as { source?: { data?: unknown } }).source;
  if (typeof source?.data === 'string') return source.data.length;
  try {
    return JSON.stringify(b)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** Characters of images, documents and other non-text blocks in a result. */
export function resultMediaSize(block: ToolResultBlockParam): number {
  if (typeof block.content === 'string' || !block.content) return 0;
  return block.content.reduce((n, b) => n + mediaChars(b), 0);
}

function mediaNote(b: ContentBlock, size: number, budget: number): string {
  const source = (b as { source?: { media_type?: unknown } }).source;
  const what =
    b.type === 'image' ? 'Image' : b.type === 'document' ? 'Document' : `Content of type ${b.type}`;
  const type = typeof source?.media_type === 'string' ? `${source.media_type}, ` : '';
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `[${what} (${type}${mb(size)}) left out: the tool results of this turn already carry the most images and documents tabcode sends at once (${mb(budget)}). Ask for a smaller one.]`;
}

/**
 * `block` with its non-text blocks kept in order while they fit in `left` characters; the others
 * become notes. Deterministic (the same results give the same bytes every time).
 */
function capMedia(
  block: ToolResultBlockParam,
  left: number,
  budget: number,
): { block: ToolResultBlockParam; used: number } {
  if (typeof block.content === 'string' || !block.content) return { block, used: 0 };
  let used = 0;
  let changed = false;
  const content = block.content.map((b): ContentBlock => {
    const size = mediaChars(b);
    if (size === 0) return b;
    if (used + size <= left) {
      used += size;
      return b;
    }
    changed = true;
    return { type: 'text', text: mediaNote(b, size, budget) };
  });
  return { block: changed ? { ...block, content } : block, used };
}

// ---------------------------------------------------------------------------------------------------
// The spiller

export interface ResultSpiller {
  /** Per result (the loop's processResult): spills a result over its tool's limit. Never throws. */
  processResult(
    block: ToolResultBlockParam,
    tool: AnyTool,
    ctx: ToolUseContext,
  ): Promise<ToolResultBlockParam>;
  /**
   * Per user message: spills the largest spillable results while the message passes the budget, then
   * records every remaining decision (kept inline). Results keep their order. Never throws.
   */
  enforceMessageBudget(
    results: readonly ToolResultBlockParam[],
    uses: readonly ToolUseBlockParam[],
    tools: readonly AnyTool[],
    ctx: ToolUseContext,
  ): Promise<ToolResultBlockParam[]>;
}

export interface ResultSpillerOptions {
  store: ResultStore;
  /** Default MAX_TOOL_RESULTS_PER_MESSAGE_CHARS. */
  messageBudgetChars?: number;
  /** Characters of images and documents per message; default MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS. */
  messageMediaBudgetChars?: number;
}

function limitOf(tool: AnyTool | undefined): number {
  return tool?.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS;
}

export function createResultSpiller(options: ResultSpillerOptions): ResultSpiller {
  const budget = options.messageBudgetChars ?? MAX_TOOL_RESULTS_PER_MESSAGE_CHARS;
  const mediaBudget = options.messageMediaBudgetChars ?? MAX_TOOL_RESULTS_PER_MESSAGE_MEDIA_CHARS;

  /** Spills `block` and records the decision; when storage fails, the text is cut instead. */
  const spill = async (block: ToolResultBlockParam, ctx: ToolUseContext): Promise<ToolResultBlockParam> => {
    // Stored under an id of ours; the decision stays keyed by the block's tool_use_id.
    const id = newSpillId();
    const text = resultText(block);
    let replacement: string;
    try {
      await options.store.put(id, text);
      replacement = persistedOutputText(id, text);
    } catch (err) {
      const kept = previewOf(text, PERSISTED_OUTPUT_PREVIEW_CHARS * 5);
      replacement = `${kept}\n\n[Output cut from ${fmt(text.length)} to ${fmt(kept.length)} characters: storage is unavailable (${String(err)}).]`;
    }
    ctx.contentReplacementState.decisions.set(block.tool_use_id, replacement);
    return withText(block, replacement);
  };

  /** The recorded decision applied to `block`, or undefined when none was made. */
  const decided = (block: ToolResultBlockParam, ctx: ToolUseContext): ToolResultBlockParam | undefined => {
    const decisions = ctx.contentReplacementState.decisions;
    if (!decisions.has(block.tool_use_id)) return undefined;
    const replacement = decisions.get(block.tool_use_id);
    return typeof replacement === 'string' ? withText(block, replacement) : block;
  };

  return {
    async processResult(block, tool, ctx) {
      const prior = decided(block, ctx);
      if (prior) return prior;
      if (resultTextSize(block) <= limitOf(tool)) return block;
      return spill(block, ctx);
    },

    async enforceMessageBudget(results, uses, tools, ctx) {
      const out = results.map((b) => decided(b, ctx) ?? b);
      const decisions = ctx.contentReplacementState.decisions;
      const open = (i: number) => !decisions.has(out[i].tool_use_id);
      const toolOf = (id: string) => {
        const use = uses.find((u) => u.id === id);
        return use ? findTool(tools, use.name) : undefined;
      };
      let total = out.reduce((n, b) => n + resultTextSize(b), 0);
      while (total > budget) {
        let largest = -1;
        for (let i = 0; i < out.length; i++) {
          if (!open(i) || !Number.isFinite(limitOf(toolOf(out[i].tool_use_id)))) continue;
          if (largest < 0 || resultTextSize(out[i]) > resultTextSize(out[largest])) largest = i;
        }
        if (largest < 0) break;
        const before = resultTextSize(out[largest]);
        out[largest] = await spill(out[largest], ctx);
        total += resultTextSize(out[largest]) - before;
      }
      for (const b of out) if (!decisions.has(b.tool_use_id)) decisions.set(b.tool_use_id, null);
      // Images and documents count too: kept in order while they fit, the rest noted.
      let left = mediaBudget;
      for (let i = 0; i < out.length; i++) {
        const capped = capMedia(out[i], left, mediaBudget);
        out[i] = capped.block;
        left -= capped.used;
      }
      return out;
    },
  };
}
