/**
 * The page's view of a transcript as saved with a session: transcript items without callbacks, checked
 * strictly when read back (an imported file is untrusted), or rebuilt from the API messages when a
 * session has no usable view.
 */
import { z } from 'zod';
import { INTERRUPT_MESSAGE, INTERRUPT_MESSAGE_FOR_TOOL_USE } from '../core/constants.ts';
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../core/messages.ts';
import { HABIT_ITEM_SCHEMAS } from './habits-stored.ts';
import { blockText, type TranscriptItem } from './transcript-state.ts';

export const STORED_VIEW_VERSION = 1;

export interface StoredView {
  version: typeof STORED_VIEW_VERSION;
  items: TranscriptItem[];
}

/** Items as saved: permission callbacks dropped, the raw streamed input dropped once parsed. */
export function toStoredView(items: readonly TranscriptItem[]): StoredView {
  return { version: STORED_VIEW_VERSION, items: items.map(toStoredItem) };
}

/** Stored forms of items, by item: an unchanged item keeps its stored object (saves compare by identity). */
const storedItems = new WeakMap<TranscriptItem, TranscriptItem>();

/** One item as saved (the same object for the same item). */
export function toStoredItem(item: TranscriptItem): TranscriptItem {
  if (item.kind !== 'tool') return item;
  const cached = storedItems.get(item);
  if (cached) return cached;
  const { permission: _permission, ...card } = item.card;
  // A sub-agent's transcript is saved with its card (items only: no callbacks, nothing streaming).
  const sub = card.subagent;
  const subagent = sub
    ? {
        ...sub,
        transcript: {
          items: sub.transcript.items.map(toStoredItem),
          running: false,
          seq: sub.transcript.seq,
        },
      }
    : undefined;
  const base = subagent ? { ...card, subagent } : card;
  const stored = { ...item, card: base.input !== undefined ? { ...base, inputJson: '' } : base };
  storedItems.set(item, stored);
  return stored;
}

const str = z.string();
const body = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('text'), text: str }),
  z.object({ kind: z.literal('markdown'), text: str }),
  z.object({ kind: z.literal('code'), code: str, language: str.optional() }),
  z.object({ kind: z.literal('terminal'), command: str }),
  z.object({ kind: z.literal('diff'), path: str, before: str, after: str }),
]);
const resultView = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: str }),
  z.object({ kind: z.literal('markdown'), text: str }),
  z.object({
    kind: z.literal('terminal'),
    stdout: str,
    stderr: str,
    exitCode: z.number(),
    timedOut: z.boolean().optional(),
    backgroundId: str.optional(),
    running: z.boolean().optional(),
    state: str.optional(),
  }),
  z.object({ kind: z.literal('diff'), path: str, before: str, after: str }),
  z.object({ kind: z.literal('files'), paths: z.array(str), truncated: z.boolean().optional() }),
  z.object({ kind: z.literal('code'), path: str.optional(), code: str, language: str.optional() }),
]);
const card = z.object({
  toolUseId: str,
  name: str,
  status: z.enum(['pending', 'running', 'done', 'error', 'interrupted']),
  inputJson: str,
  input: z.unknown().optional(),
  view: z.object({ title: str, subtitle: str.optional(), body: body.optional() }).optional(),
  progress: str,
  statusText: str.optional(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  result: z
    .object({ isError: z.boolean(), view: resultView.optional(), content: str, durationMs: z.number() })
    .optional(),
  note: str.optional(),
  // A sub-agent's transcript (Agent, a forked Skill): the same items, one level down.
  subagent: z
    .object({
      agentId: str,
      transcript: z.object({
        items: z.array(z.lazy((): z.ZodType<unknown> => item)),
        running: z.boolean(),
        seq: z.number(),
      }),
      usage: z.object({ requests: z.number(), inputTokens: z.number(), outputTokens: z.number() }),
    })
    .optional(),
});
const error = z.object({
  kind: z.enum([
    'auth',
    'rate_limit',
    'overloaded',
    'server',
    'invalid_request',
    'network',
    'aborted',
    'unknown',
  ]),
  status: z.number().optional(),
  message: str,
  apiType: str.optional(),
  midStream: z.boolean().optional(),
});
const item = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: str, text: str, returned: z.literal(true).optional() }),
  z.object({
    kind: z.literal('assistant-text'),
    id: str,
    text: str,
    streaming: z.boolean().optional(),
    discarded: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('tool'), id: str, card }),
  z.object({ kind: z.literal('error'), id: str, error }),
  z.object({
    kind: z.literal('notice'),
    id: str,
    notice: z.enum(['interrupted', 'max_turns', 'max_tokens', 'refusal', 'missing-key']),
  }),
  ...HABIT_ITEM_SCHEMAS,
]);
const storedView = z.object({ version: z.literal(STORED_VIEW_VERSION), items: z.array(item) });

/** The saved view checked against the item shapes, or null when it does not fit (rebuild it then). */
export function fromStoredView(view: unknown): StoredView | null {
  const parsed = storedView.safeParse(view);
  if (!parsed.success) return null;
  const ids = new Set<string>();
  for (const it of parsed.data.items) {
    if (ids.has(it.id)) return null;
    ids.add(it.id);
  }
  return parsed.data as StoredView;
}

/**
 * Items rebuilt from API messages alone (a session saved without a view): prompts, assistant text,
 * one card per tool_use with the text its tool_result gave the model.
 */
export function itemsFromMessages(messages: readonly MessageParam[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const cards = new Map<string, number>();
  let seq = 0;
  const nextId = () => `item:${++seq}`;
  const blocks = (m: MessageParam): ContentBlockParam[] =>
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  for (const m of messages) {
    for (const b of blocks(m)) {
      if (b.type === 'text') {
        if (m.role === 'assistant') items.push({ kind: 'assistant-text', id: nextId(), text: b.text });
        else if (b.text === INTERRUPT_MESSAGE || b.text === INTERRUPT_MESSAGE_FOR_TOOL_USE)
          items.push({ kind: 'notice', id: nextId(), notice: 'interrupted' });
        else items.push({ kind: 'user', id: nextId(), text: b.text });
      } else if (b.type === 'tool_use') {
        cards.set(b.id, items.length);
        items.push({
          kind: 'tool',
          id: `tool:${b.id}`,
          card: {
            toolUseId: b.id,
            name: b.name,
            status: 'pending',
            inputJson: '',
            input: b.input,
            progress: '',
          },
        });
      } else if (b.type === 'tool_result') {
        const at = cards.get(b.tool_use_id);
        const target = at === undefined ? undefined : items[at];
        if (target?.kind !== 'tool') continue;
        const result = b as ToolResultBlockParam;
        items[at as number] = {
          ...target,
          card: {
            ...target.card,
            status: result.is_error ? 'error' : 'done',
            result: { isError: Boolean(result.is_error), content: blockText(result), durationMs: 0 },
          },
        };
      }
    }
  }
  return items;
}
