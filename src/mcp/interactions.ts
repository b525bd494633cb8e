/**
 * Requests a server sends the client that need the user: elicitation (a form built from the requested
 * schema) and sampling (the server asks tabcode's model to write something; it runs only when the user
 * approves that request). They wait in a queue the page shows next to the transcript; each is answered
 * once, or cancelled when the server's request is cancelled. Plain data: the UI renders it, the
 * conformance driver and tests answer it directly.
 */
import { type ElicitField, elicitationFields } from './elicitation.ts';

/** A sampling request, summarized for the user to approve. */
export interface SamplingSummary {
  systemPrompt?: string;
  messages: Array<{ role: string; text: string }>;
  maxTokens: number;
}

export type McpInteraction =
  | {
      id: string;
      kind: 'elicitation';
      server: string;
      message: string;
      fields: ElicitField[];
      /** The tool call that is waiting for this answer, when known. */
      toolUseId?: string;
      createdAt: number;
    }
  | {
      id: string;
      kind: 'sampling';
      server: string;
      summary: SamplingSummary;
      toolUseId?: string;
      createdAt: number;
    };

export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };
export type SamplingAnswer = { action: 'approve' } | { action: 'decline' };
export type McpInteractionAnswer = ElicitationAnswer | SamplingAnswer;

/** Distributes McpInteraction without `id` and `createdAt` over the union. */
type NewInteraction = McpInteraction extends infer I
  ? I extends McpInteraction
    ? Omit<I, 'id' | 'createdAt'>
    : never
  : never;

export interface InteractionQueue {
  /** Pending requests, oldest first. */
  list(): McpInteraction[];
  /** Adds a request; resolves with the user's answer ({action: 'cancel'} when `signal` aborts first). */
  ask(interaction: NewInteraction, signal?: AbortSignal): Promise<McpInteractionAnswer>;
  /** Answers a pending request; false when there is none with that id. */
  answer(id: string, answer: McpInteractionAnswer): boolean;
  /** Cancels every request of `server` (it disconnected or was removed). */
  cancelServer(server: string): void;
}

let counter = 0;

export function createInteractionQueue(onChange: () => void): InteractionQueue {
  const pending = new Map<string, { item: McpInteraction; resolve: (a: McpInteractionAnswer) => void }>();
  const settle = (id: string, answer: McpInteractionAnswer): boolean => {
    const entry = pending.get(id);
    if (!entry) return false;
    pending.delete(id);
    entry.resolve(answer);
    onChange();
    return true;
  };
  return {
    list: () => [...pending.values()].map((e) => e.item),
    ask(interaction, signal) {
      const id = `mcp-ask-${++counter}`;
      const item = { ...interaction, id, createdAt: Date.now() } as McpInteraction;
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve({ action: 'cancel' });
        pending.set(id, { item, resolve });
        signal?.addEventListener('abort', () => settle(id, { action: 'cancel' }), { once: true });
        onChange();
      });
    },
    answer: settle,
    cancelServer(server) {
      for (const [id, e] of [...pending]) if (e.item.server === server) settle(id, { action: 'cancel' });
    },
  };
}

/** The text of a sampling message's content (text parts; other parts noted). */
export function samplingText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => {
      const part = p as { type?: unknown; text?: unknown; mimeType?: unknown };
      if (part?.type === 'text' && typeof part.text === 'string') return part.text;
      return `[${String(part?.type ?? 'content')}${typeof part?.mimeType === 'string' ? ` ${part.mimeType}` : ''}]`;
    })
    .join('\n');
}

/** Fields of a requested schema, for an elicitation interaction (null: not a form tabcode can show). */
export { elicitationFields };
