/**
 * Token estimation and a model of Anthropic's prompt cache, for the `usage` the mock reports.
 *
 * The prompt is linearized as blocks in request order: tools (deferred tools are not rendered, so they
 * are left out) → system → message content blocks. Each block's tokens are ⌈chars / 4⌉ of its JSON
 * without `cache_control`; its key hashes the model and every byte of the prefix up to and including it
 * (`tool_choice` and `thinking` are mixed in before the first message, as changing them busts the
 * messages cache). A block with `cache_control` (or the last block, for a top-level `cache_control`) is a
 * breakpoint. Per request:
 * - read: for each breakpoint, the nearest live entry at or up to `lookback - 1` blocks before it; the
 *   furthest such hit gives `cache_read_input_tokens` (its prefix length), and its TTL is refreshed;
 * - write: every breakpoint whose prefix reaches `minTokens` is stored (TTL 5 min, or 1 h for
 *   `ttl: '1h'`); the tokens between the read prefix and the furthest stored breakpoint are
 *   `cache_creation_input_tokens`;
 * - the rest (after the last cached breakpoint) is `input_tokens`.
 */
import { createHash, type Hash } from 'node:crypto';

type Json = Record<string, unknown>;

export const CACHE_TTL_5M = 5 * 60_000;
export const CACHE_TTL_1H = 60 * 60_000;
/** Shortest cacheable prefix, in tokens. */
export const DEFAULT_MIN_CACHE_TOKENS = 1024;
/** How many block boundaries (the breakpoint included) are checked for an earlier entry. */
export const DEFAULT_CACHE_LOOKBACK = 20;

/** Deterministic token estimate: ⌈chars / 4⌉. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** One block of the linearized prompt. */
export interface PromptBlock {
  section: 'tools' | 'system' | 'messages';
  tokens: number;
  /** Tokens of the prefix up to and including this block. */
  cumulative: number;
  /** Hash of the model and the whole prefix up to and including this block. */
  key: string;
  /** Set when the block carries `cache_control`. */
  ttl?: '5m' | '1h';
}

/** Usage numbers for the input side of a request. */
export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function withoutCacheControl(block: Json): Json {
  const { cache_control: _drop, ...rest } = block;
  return rest;
}

function ttlOf(block: Json): '5m' | '1h' | undefined {
  const cc = block.cache_control;
  if (!isObject(cc)) return undefined;
  return cc.ttl === '1h' ? '1h' : '5m';
}

/** Serializes a message block for hashing; a tool_result's nested blocks lose `cache_control` and a
 * `tool_reference` is expanded with the referenced tool's definition (it is what the model sees). */
function serializeMessageBlock(
  block: Json,
  toolsByName: Map<string, Json>,
): { text: string; ttl?: '5m' | '1h' } {
  let ttl = ttlOf(block);
  let clean = withoutCacheControl(block);
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    const content = block.content.map((item: unknown) => {
      if (!isObject(item)) return item;
      ttl = ttl ?? ttlOf(item);
      const inner = withoutCacheControl(item);
      if (inner.type === 'tool_reference') {
        const def = toolsByName.get(String(inner.tool_name));
        return def ? { ...inner, definition: withoutCacheControl(def) } : inner;
      }
      return inner;
    });
    clean = { ...clean, content };
  }
  return { text: JSON.stringify(clean), ttl };
}

/** Linearizes a (valid) request body into prompt blocks in cache order: tools → system → messages. */
export function linearizePrompt(body: Json): PromptBlock[] {
  const hash = createHash('sha256');
  hash.update(`model:${String(body.model)}\n`);
  const blocks: PromptBlock[] = [];
  let cumulative = 0;
  const add = (section: PromptBlock['section'], h: Hash, text: string, ttl?: '5m' | '1h'): void => {
    h.update(`${section}:${text}\n`);
    const tokens = estimateTokens(text);
    cumulative += tokens;
    blocks.push({ section, tokens, cumulative, key: h.copy().digest('base64'), ttl });
  };

  const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject);
  const toolsByName = new Map(tools.map((t) => [String(t.name), t]));
  for (const tool of tools) {
    if (tool.defer_loading === true) continue;
    add('tools', hash, JSON.stringify(withoutCacheControl(tool)), ttlOf(tool));
  }
  if (typeof body.system === 'string') {
    if (body.system.length > 0) add('system', hash, JSON.stringify(body.system));
  } else if (Array.isArray(body.system)) {
    for (const block of body.system.filter(isObject)) {
      add('system', hash, JSON.stringify(withoutCacheControl(block)), ttlOf(block));
    }
  }
  hash.update(`context:${JSON.stringify({ tool_choice: body.tool_choice, thinking: body.thinking })}\n`);
  const messages = (Array.isArray(body.messages) ? body.messages : []).filter(isObject);
  messages.forEach((message, i) => {
    hash.update(`message ${i} ${String(message.role)}\n`);
    const content = message.content;
    const list = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    for (const block of Array.isArray(list) ? list.filter(isObject) : []) {
      const { text, ttl } = serializeMessageBlock(block, toolsByName);
      add('messages', hash, text, ttl);
    }
  });
  if (isObject(body.cache_control) && blocks.length > 0) {
    const last = blocks[blocks.length - 1];
    last.ttl = last.ttl ?? (body.cache_control.ttl === '1h' ? '1h' : '5m');
  }
  return blocks;
}

/** Total input tokens of a request (what count_tokens answers), at least 1. */
export function estimateInputTokens(body: Json): number {
  const blocks = linearizePrompt(body);
  return Math.max(1, blocks.length > 0 ? blocks[blocks.length - 1].cumulative : 0);
}

interface Entry {
  expiresAt: number;
  ttlMs: number;
}

export interface PromptCacheOptions {
  clock: () => number;
  minTokens?: number;
  lookback?: number;
}

/** The server-side prompt cache. One per mock server; entries are keyed by model + prefix bytes. */
export class PromptCache {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: () => number;
  private readonly minTokens: number;
  private readonly lookback: number;

  constructor(options: PromptCacheOptions) {
    this.clock = options.clock;
    this.minTokens = options.minTokens ?? DEFAULT_MIN_CACHE_TOKENS;
    this.lookback = options.lookback ?? DEFAULT_CACHE_LOOKBACK;
  }

  /** Live entries (expired ones are dropped first). */
  get size(): number {
    this.purge(this.clock());
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Computes the request's input usage and updates the cache (writes and TTL refreshes). */
  account(body: Json): CacheUsage {
    const now = this.clock();
    this.purge(now);
    const blocks = linearizePrompt(body);
    const total = blocks.length > 0 ? blocks[blocks.length - 1].cumulative : 0;
    const breakpoints = blocks.map((b, i) => (b.ttl ? i : -1)).filter((i) => i >= 0);

    let hit = -1;
    for (const bp of breakpoints) {
      for (let j = bp; j >= 0 && j > bp - this.lookback; j--) {
        if (this.entries.has(blocks[j].key)) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const read = hit >= 0 ? blocks[hit].cumulative : 0;
    if (hit >= 0) {
      const entry = this.entries.get(blocks[hit].key)!;
      entry.expiresAt = Math.max(entry.expiresAt, now + entry.ttlMs);
    }

    let covered = read;
    const created = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
    for (const bp of breakpoints) {
      const block = blocks[bp];
      if (block.cumulative < this.minTokens) continue;
      const ttlMs = block.ttl === '1h' ? CACHE_TTL_1H : CACHE_TTL_5M;
      const existing = this.entries.get(block.key);
      this.entries.set(block.key, {
        expiresAt: Math.max(existing?.expiresAt ?? 0, now + ttlMs),
        ttlMs: Math.max(existing?.ttlMs ?? 0, ttlMs),
      });
      if (block.cumulative > covered) {
        const segment = block.cumulative - covered;
        if (block.ttl === '1h') created.ephemeral_1h_input_tokens += segment;
        else created.ephemeral_5m_input_tokens += segment;
        covered = block.cumulative;
      }
    }
    return {
      input_tokens: total - covered,
      cache_creation_input_tokens: covered - read,
      cache_read_input_tokens: read,
      cache_creation: created,
    };
  }

  private purge(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
