/**
 * The transcript items of long sessions and Claude Code habits, and the part of the transcript reducer
 * that makes them: thinking blocks (shown collapsed), compaction dividers, `!` shell runs, the output of
 * slash commands run in the page, and short notes (memory read, hooks, attached files, the loop guard,
 * refused prompts). Pure.
 */

import type { ShellRunResult } from '../agent/types.ts';
import type { CompactionTrigger } from '../core/events.ts';
import type { HookReport } from '../core/hooks/types.ts';
import type { TranscriptAction, TranscriptItem, TranscriptState } from './transcript-state.ts';

export type HabitItem =
  | {
      kind: 'thinking';
      id: string;
      text: string;
      /** Encrypted by the API: nothing to show. */
      redacted?: boolean;
      streaming?: boolean;
      /** Its message never ended: not kept. */
      discarded?: boolean;
    }
  | {
      kind: 'compaction';
      id: string;
      trigger: CompactionTrigger;
      /** 'cleared': old tool results were cleared (no summary). */
      status: 'running' | 'done' | 'failed' | 'cleared';
      tokensBefore: number;
      tokensAfter?: number;
      summarized?: number;
      cleared?: number;
      summary?: string;
      error?: string;
    }
  | {
      kind: 'shell';
      id: string;
      command: string;
      status: 'running' | 'done';
      stdout?: string;
      stderr?: string;
      exitCode?: number;
      timedOut?: boolean;
    }
  | { kind: 'command'; id: string; input: string; output: string; tone: 'info' | 'error' }
  | {
      kind: 'note';
      id: string;
      topic: NoteTopic;
      tone: 'info' | 'warn' | 'error';
      text: string;
      detail?: string;
    };

export type NoteTopic = 'memory' | 'hook' | 'mentions' | 'loop-guard' | 'refused';

/** Output of a running `!` line kept while it streams (its end brings the whole, capped, output). */
export const SHELL_SHOWN_CHARS = 100_000;

/** Page-made habit items: a slash command's output. */
export type HabitLocalEvent = {
  type: 'local-command';
  input: string;
  output: string;
  tone?: 'info' | 'error';
};

/** Item id of a thinking block of the message streaming now. */
export function thinkingId(messageId: string | undefined, index: number): string {
  return `thinking:${messageId ?? 'msg'}:${index}`;
}

function push(state: TranscriptState, item: (id: string) => HabitItem): TranscriptState {
  const seq = state.seq + 1;
  return { ...state, seq, items: [...state.items, item(`item:${seq}`)] };
}

function replace(state: TranscriptState, at: number, item: HabitItem): TranscriptState {
  const items = state.items.slice();
  items[at] = item;
  return { ...state, items };
}

/** What a hook report says in the transcript (null: a quiet success). */
function hookNote(r: HookReport): { tone: 'info' | 'warn' | 'error'; text: string; detail?: string } | null {
  const who = `${r.event} hook${r.toolName ? ` (${r.toolName})` : ''}`;
  switch (r.outcome) {
    case 'blocked':
      return { tone: 'warn', text: `${who} blocked it`, detail: r.message };
    case 'timeout':
      return {
        tone: 'error',
        text: `${who} timed out; the call went on`,
        detail: `${r.label}\n${r.message ?? ''}`,
      };
    case 'invalid-json':
      return {
        tone: 'error',
        text: `${who} printed invalid JSON; the call went on`,
        detail: `${r.label}\n${r.message ?? ''}`,
      };
    case 'error':
      return {
        tone: 'error',
        text: `${who} failed; the call went on`,
        detail: `${r.label}\n${r.message ?? ''}`,
      };
    case 'success':
      if (
        r.decision === 'deny' ||
        r.decision === 'ask' ||
        r.decision === 'allow' ||
        r.decision === 'rewrite' ||
        r.decision === 'block' ||
        r.decision === 'stop'
      ) {
        const verb = {
          deny: 'denied it',
          ask: 'asks you to confirm',
          allow: 'allowed it',
          rewrite: 'rewrote the input',
          block: 'blocked it',
          stop: 'stopped the turn',
        }[r.decision];
        return {
          tone: r.decision === 'allow' || r.decision === 'rewrite' ? 'info' : 'warn',
          text: `${who} ${verb}`,
          detail: r.message,
        };
      }
      return null;
  }
}

/**
 * The state after a habit event, or null when the event is not one of these (the main reducer handles
 * it). Thinking deltas follow the message streaming now (`state.messageId`).
 */
export function reduceHabitEvent(state: TranscriptState, event: TranscriptAction): TranscriptState | null {
  switch (event.type) {
    case 'thinking-start': {
      const id = thinkingId(state.messageId, event.index);
      if (state.items.some((i) => i.id === id)) return state;
      return {
        ...state,
        streamingIds: [...(state.streamingIds ?? []), id],
        items: [
          ...state.items,
          { kind: 'thinking', id, text: '', streaming: true, ...(event.redacted ? { redacted: true } : {}) },
        ],
      };
    }
    case 'thinking-delta': {
      const id = thinkingId(state.messageId, event.index);
      const at = state.items.findIndex((i) => i.id === id);
      const item = state.items[at];
      if (item?.kind !== 'thinking') return state;
      return replace(state, at, { ...item, text: item.text + event.text });
    }
    case 'context-cleared':
      return push(state, (id) => ({
        kind: 'compaction',
        id,
        trigger: 'auto',
        status: 'cleared',
        cleared: event.cleared,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
      }));
    case 'compaction-start':
      return push(state, (id) => ({
        kind: 'compaction',
        id,
        trigger: event.trigger,
        status: 'running',
        tokensBefore: event.tokensBefore,
      }));
    case 'compaction-end':
    case 'compaction-failed': {
      let at = -1;
      for (let i = state.items.length - 1; i >= 0; i--) {
        const it = state.items[i];
        if (it.kind === 'compaction' && it.status === 'running') {
          at = i;
          break;
        }
      }
      const base: HabitItem =
        at >= 0
          ? (state.items[at] as HabitItem)
          : {
              kind: 'compaction',
              id: `item:${state.seq + 1}`,
              trigger: event.trigger,
              status: 'running',
              tokensBefore: 0,
            };
      if (base.kind !== 'compaction') return state;
      const next: HabitItem =
        event.type === 'compaction-end'
          ? {
              ...base,
              status: 'done',
              summary: event.summary,
              summarized: event.summarized,
              tokensBefore: event.tokensBefore || base.tokensBefore,
              tokensAfter: event.tokensAfter,
            }
          : { ...base, status: 'failed', error: event.error.message };
      return at >= 0 ? replace(state, at, next) : push(state, () => next);
    }
    case 'shell-start':
      return push(state, () => ({
        kind: 'shell',
        id: `shell:${event.id}`,
        command: event.command,
        status: 'running',
      }));
    case 'shell-output': {
      const at = state.items.findIndex((i) => i.id === `shell:${event.id}`);
      const item = state.items[at];
      if (item?.kind !== 'shell' || item.status !== 'running') return state;
      const key = event.stream === 'stdout' ? 'stdout' : 'stderr';
      return replace(state, at, {
        ...item,
        [key]: `${item[key] ?? ''}${event.text}`.slice(-SHELL_SHOWN_CHARS),
      });
    }
    case 'shell-end': {
      const at = state.items.findIndex((i) => i.id === `shell:${event.id}`);
      const item: HabitItem = {
        kind: 'shell',
        id: `shell:${event.id}`,
        command: event.run.command,
        status: 'done',
        stdout: event.run.stdout,
        stderr: event.run.stderr,
        exitCode: event.run.exitCode,
        ...(event.run.timedOut ? { timedOut: true } : {}),
      };
      return at >= 0 ? replace(state, at, item) : push(state, () => item);
    }
    case 'local-command':
      return push(state, (id) => ({
        kind: 'command',
        id,
        input: event.input,
        output: event.output,
        tone: event.tone ?? 'info',
      }));
    case 'prompt-refused':
      return push(state, (id) => ({
        kind: 'note',
        id,
        topic: 'refused',
        tone: 'error',
        text: event.reason,
        detail: event.prompt,
      }));
    case 'memory-loaded': {
      const cut =
        event.cutChars > 0 ? ` (cut: ${event.cutChars.toLocaleString('en-US')} characters left out)` : '';
      const text = event.files.length
        ? `Memory read: ${event.files.join(', ')}${cut}`
        : 'Memory removed: there is no CLAUDE.md any more';
      return push(state, (id) => ({
        kind: 'note',
        id,
        topic: 'memory',
        tone: event.cutChars > 0 ? 'warn' : 'info',
        text,
        ...(event.problems.length ? { detail: event.problems.join('\n') } : {}),
      }));
    }
    case 'mentions-attached': {
      const text = event.paths.length
        ? `Attached: ${event.paths.map((p) => `@${p}`).join(', ')}`
        : 'No mentioned file could be attached';
      return push(state, (id) => ({
        kind: 'note',
        id,
        topic: 'mentions',
        tone: event.problems.length ? 'warn' : 'info',
        text,
        ...(event.problems.length ? { detail: event.problems.join('\n') } : {}),
      }));
    }
    case 'hook-result': {
      const note = hookNote(event.report);
      return note ? push(state, (id) => ({ kind: 'note', id, topic: 'hook', ...note })) : state;
    }
    case 'loop-guard':
      return push(state, (id) => ({
        kind: 'note',
        id,
        topic: 'loop-guard',
        tone: 'warn',
        text: `Stopped: ${event.toolName} failed ${event.count} times with the same input and the same error. Change something, then send a prompt.`,
        detail: event.error,
      }));
    default:
      return null;
  }
}

/**
 * The `!` runs after the last prompt sent (one given back to the box was not): what the model gets with
 * the next prompt, read back from a restored transcript.
 */
export function shellRunsSinceLastPrompt(items: readonly TranscriptItem[]): ShellRunResult[] {
  const runs: ShellRunResult[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'user' && !item.returned) break;
    if (item.kind === 'shell' && item.status === 'done') {
      runs.unshift({
        command: item.command,
        stdout: item.stdout ?? '',
        stderr: item.stderr ?? '',
        exitCode: item.exitCode ?? 0,
        ...(item.timedOut ? { timedOut: true } : {}),
      });
    }
  }
  return runs;
}

/**
 * A habit item of a restored session whose run was cut off (a reload): what it ends as, or the same item.
 * A thinking block still streaming was not kept; a compaction still running did not happen.
 */
export function settleRestoredItem(item: TranscriptItem): TranscriptItem {
  if (item.kind === 'thinking' && item.streaming) return { ...item, streaming: false, discarded: true };
  if (item.kind === 'compaction' && item.status === 'running') {
    return {
      ...item,
      status: 'failed',
      error: 'The page was reloaded before the summary was ready; the conversation is unchanged.',
    };
  }
  if (item.kind === 'shell' && item.status === 'running')
    return { ...item, status: 'done', exitCode: item.exitCode ?? 130 };
  return item;
}
