/**
 * The usage meter's data: one entry per model request from the `message-end` usage, the request's
 * body sizes (from `request-sent`) for the tools / system / messages split, session totals and an
 * estimated cost. Pure functions.
 */

import type { RequestUsage } from '../agent/sessions-store.ts';
import type { RequestSizes, SessionEvent } from '../agent/types.ts';

export interface UsageState {
  requests: RequestUsage[];
  /** Sizes of the request in flight (the last `request-sent`; a retry replaces it). */
  pendingSizes?: RequestSizes;
  /** Model of the response streaming now. */
  model?: string;
  /**
   * Tokens of the context now (the context meter): the last reply's input, cache reads and writes and
   * output, or what a compaction or a clearing left. Not saved: a restored session uses its last row.
   */
  context?: { tokens: number };
}

export const initialUsage: UsageState = { requests: [] };

export function reduceUsage(state: UsageState, event: SessionEvent & { at?: number }): UsageState {
  switch (event.type) {
    case 'subagent-event': {
      // A sub-agent's replies count as requests of the session (same model and endpoint).
      let inner = event.event;
      while (inner.type === 'subagent-event') inner = inner.event;
      // The meter measures this conversation's context, not the sub-agent's.
      return inner.type === 'message-end'
        ? { ...reduceUsage(state, { ...inner, at: event.at }), context: state.context }
        : state;
    }
    case 'request-sent':
      return { ...state, pendingSizes: event.sizes };
    case 'message-start':
      return { ...state, model: event.model };
    case 'message-end': {
      const u = event.usage;
      const entry: RequestUsage = {
        at: event.at ?? Date.now(),
        model: state.model ?? '',
        inputTokens: u.input_tokens ?? 0,
        outputTokens: u.output_tokens ?? 0,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        ...(state.pendingSizes ? { sizes: state.pendingSizes } : {}),
      };
      return { requests: [...state.requests, entry], context: { tokens: contextOfRow(entry) } };
    }
    case 'compaction-end': {
      // The summarization was a request like the others (it is billed); the context is now its result.
      const u = event.usage;
      const entry: RequestUsage = {
        at: event.at ?? Date.now(),
        model: event.model,
        inputTokens: u.input_tokens ?? 0,
        outputTokens: u.output_tokens ?? 0,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        ...(state.pendingSizes ? { sizes: state.pendingSizes } : {}),
      };
      return { requests: [...state.requests, entry], context: { tokens: event.tokensAfter } };
    }
    case 'context-cleared':
      return { ...state, context: { tokens: event.tokensAfter } };
    default:
      return state;
  }
}

/** The context a request's row measures: every input token plus its reply. */
export function contextOfRow(r: RequestUsage): number {
  return r.inputTokens + r.cacheReadTokens + r.cacheWriteTokens + r.outputTokens;
}

/** Tokens of the context now, for the meter (undefined before the first request). */
export function contextUsed(state: Pick<UsageState, 'requests' | 'context'>): number | undefined {
  if (state.context) return state.context.tokens;
  const last = state.requests[state.requests.length - 1];
  return last ? contextOfRow(last) : undefined;
}

export interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Estimated US dollars. */
  cost: number;
}

export function usageTotals(requests: readonly RequestUsage[]): UsageTotals {
  const t: UsageTotals = {
    requests: requests.length,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cost: 0,
  };
  for (const r of requests) {
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.cacheReadTokens += r.cacheReadTokens;
    t.cacheWriteTokens += r.cacheWriteTokens;
    t.cost += estimateCost(r);
  }
  return t;
}

/** US dollars per million tokens: input, output (cache writes cost 1.25× input, reads 0.1×). */
interface Price {
  input: number;
  output: number;
}

/** List prices by model family; an unknown model is priced as Sonnet. */
export function priceOf(model: string): Price {
  const m = model.toLowerCase();
  if (m.includes('haiku'))
    return /haiku-3|3-haiku/.test(m) ? { input: 0.25, output: 1.25 } : { input: 1, output: 5 };
  if (m.includes('opus'))
    return /opus-4-[01]\b|opus-4-20|3-opus/.test(m) ? { input: 15, output: 75 } : { input: 5, output: 25 };
  return { input: 3, output: 15 };
}

/** Estimated cost of one request in US dollars (5-minute cache writes). */
export function estimateCost(r: RequestUsage): number {
  const p = priceOf(r.model);
  const input =
    r.inputTokens * p.input + r.cacheWriteTokens * p.input * 1.25 + r.cacheReadTokens * p.input * 0.1;
  return (input + r.outputTokens * p.output) / 1_000_000;
}

export interface TokenSplit {
  tools: number;
  system: number;
  messages: number;
}

/**
 * The request's input tokens (uncached + cache read + cache write) split into tools / system / messages
 * in proportion to the characters of each part of the body. An estimate: tokenization is not uniform.
 * Undefined when the sizes are unknown.
 */
export function splitInputTokens(r: RequestUsage): TokenSplit | undefined {
  const s = r.sizes;
  if (!s) return undefined;
  const chars = s.toolsChars + s.systemChars + s.messagesChars;
  if (chars === 0) return undefined;
  const total = r.inputTokens + r.cacheReadTokens + r.cacheWriteTokens;
  const tools = Math.round((total * s.toolsChars) / chars);
  const system = Math.round((total * s.systemChars) / chars);
  return { tools, system, messages: Math.max(0, total - tools - system) };
}

/** 1234 → "1.2k", 1234567 → "1.23M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatCost(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}
