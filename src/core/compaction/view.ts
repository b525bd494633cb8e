/**
 * What the summarizer reads: a bounded view of every message of the conversation. When the messages
 * do not fit the summarization request as they are, long texts, tool input strings and tool results
 * are cut to their head and tail with a note of how much was left out (images and documents become a
 * note), with the largest per-block limit that lets everything fit; only when even the smallest limit
 * is not enough are the oldest messages left out. The view is sent once and thrown away: the
 * transcript itself is never shortened here. Pure functions; inputs are not mutated.
 */
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../messages.ts';
import { contentBlocks } from '../messages.ts';
import { estimateJsonTokens } from './estimate.ts';
import { COMPACTION_VIEW_BLOCK_CAPS } from './limits.ts';

/** The note put where characters were left out. */
export function leftOutNote(chars: number): string {
  return `[… ${chars.toLocaleString('en-US')} characters left out of this view …]`;
}

/** The note that stands for an image or a document in the view. */
export const MEDIA_LEFT_OUT_NOTE = '[An image or document was here; it is left out of this view.]';

/** The note that opens a view whose oldest messages were left out. */
export function droppedNote(dropped: number): string {
  return `[The ${dropped} oldest message${dropped === 1 ? ' is' : 's are'} left out of this view: the conversation is too long to show whole.]`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * `text` cut to at most about `cap` characters: its head and tail around a note of what was left out.
 * Never splits a surrogate pair (a lone surrogate would make the request invalid).
 */
export function shortenText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const keep = Math.max(0, cap - 60);
  let headEnd = Math.ceil(keep / 2);
  let tailStart = text.length - Math.floor(keep / 2);
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const left = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n${leftOutNote(left)}\n${text.slice(tailStart)}`;
}

/** Counts the blocks a view changed. */
interface Counter {
  shortened: number;
}

/** Every string inside a JSON value shortened (a tool's input). */
function shortenValue(value: unknown, cap: number): unknown {
  if (typeof value === 'string') return shortenText(value, cap);
  if (Array.isArray(value)) return value.map((v) => shortenValue(v, cap));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenValue(v, cap)]));
  }
  return value;
}

/**
 * A tool input in the view: its strings shortened; when it is still large (many fields), its JSON
 * shortened as one string. Always an object (the API's rule for tool_use input).
 */
function shortenInput(input: unknown, cap: number): Record<string, unknown> {
  const shortened = shortenValue(input, cap);
  const json = JSON.stringify(shortened) ?? '';
  if (json.length <= 2 * cap && typeof shortened === 'object' && shortened !== null) {
    return shortened as Record<string, unknown>;
  }
  return { shortened_input: shortenText(JSON.stringify(input) ?? '', cap) };
}

function shortenResultContent(
  content: ToolResultBlockParam['content'],
  cap: number,
): ToolResultBlockParam['content'] {
  if (typeof content === 'string') return shortenText(content, cap);
  if (!Array.isArray(content)) return content;
  return content.map((b) => {
    if (b.type === 'text') return { ...b, text: shortenText(b.text, cap) };
    if (b.type === 'image' || b.type === 'document') return { type: 'text', text: MEDIA_LEFT_OUT_NOTE };
    return b;
  }) as ToolResultBlockParam['content'];
}

/** One block in the view. Thinking and server-tool blocks stay as they are (they are signed or opaque). */
function shortenBlock(block: ContentBlockParam, cap: number, counter: Counter): ContentBlockParam {
  let out: ContentBlockParam = block;
  switch (block.type) {
    case 'text':
      out = { ...block, text: shortenText(block.text, cap) };
      break;
    case 'image':
    case 'document':
      out = { type: 'text', text: MEDIA_LEFT_OUT_NOTE };
      break;
    case 'tool_use':
      out = { ...block, input: shortenInput(block.input, cap) };
      break;
    case 'tool_result':
      out = { ...block, content: shortenResultContent(block.content, cap) };
      break;
    default:
      return block;
  }
  if (JSON.stringify(out) !== JSON.stringify(block)) counter.shortened++;
  return out;
}

export interface SummaryView {
  /** The messages the summarizer reads (not yet paired: the request pairs them). */
  messages: MessageParam[];
  /** The per-block limit used (Infinity: nothing shortened). */
  cap: number;
  /** Blocks cut to their head and tail (or replaced by a note). */
  shortened: number;
  /** Oldest messages left out. */
  dropped: number;
  /** Estimated tokens of the view's messages. */
  tokens: number;
}

/**
 * The bounded view of `messages` within `budgetTokens` (estimated): the largest per-block limit of
 * COMPACTION_VIEW_BLOCK_CAPS that fits, else the smallest with the oldest messages left out (and a
 * note in front saying so). Never throws.
 */
export function summaryView(messages: readonly MessageParam[], budgetTokens: number): SummaryView {
  const caps = COMPACTION_VIEW_BLOCK_CAPS;
  for (let i = 0; i < caps.length; i++) {
    const cap = caps[i];
    const counter: Counter = { shortened: 0 };
    const view: MessageParam[] = Number.isFinite(cap)
      ? messages.map(
          (m) =>
            ({
              ...m,
              content: contentBlocks(m).map((b) => shortenBlock(b, cap, counter)),
            }) as MessageParam,
        )
      : messages.slice();
    const sizes = view.map((m) => estimateJsonTokens(m));
    let tokens = sizes.reduce((a, b) => a + b, 0);
    if (tokens <= budgetTokens)
      return { messages: view, cap, shortened: counter.shortened, dropped: 0, tokens };
    if (i < caps.length - 1) continue;
    // Even the smallest limit is not enough: the oldest messages go, one by one.
    const note: MessageParam = { role: 'user', content: [{ type: 'text', text: droppedNote(view.length) }] };
    const noteTokens = estimateJsonTokens(note) + 20;
    let dropped = 0;
    while (dropped < view.length && tokens + noteTokens > budgetTokens) {
      tokens -= sizes[dropped];
      dropped++;
    }
    const kept = view.slice(dropped);
    const first: MessageParam = { role: 'user', content: [{ type: 'text', text: droppedNote(dropped) }] };
    return {
      messages: dropped > 0 ? [first, ...kept] : kept,
      cap,
      shortened: counter.shortened,
      dropped,
      tokens: tokens + (dropped > 0 ? noteTokens : 0),
    };
  }
  return { messages: messages.slice(), cap: Number.POSITIVE_INFINITY, shortened: 0, dropped: 0, tokens: 0 };
}
