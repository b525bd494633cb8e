/**
 * Project memory (CLAUDE.md) in the transcript. The agent session reads the memory files at the start of
 * a turn; when their text differs from what the transcript last stated, a `<system-reminder>` with the
 * new text joins that turn's user message. Stated in the messages (not the system prompt), so tools and
 * system stay byte-stable when the file changes; stated once per change, so the messages cache survives
 * too. Compaction carries the latest statement into the summary message. Pure functions.
 */
import { MAX_MEMORY_CHARS } from './constants.ts';
import { contentBlocks, type MessageParam, type TextBlockParam } from './messages.ts';

/** One memory source: a workspace file or text an embedding page supplied. */
export interface MemorySource {
  /** Shown to the model and the user: a workspace path (`CLAUDE.md`) or `embedding page`. */
  label: string;
  text: string;
}

/** The first line of every memory reminder: how the transcript's statements are found again. */
export const MEMORY_REMINDER_HEADER =
  "Project memory (CLAUDE.md): the user's instructions for this project. Follow them; they override default behaviour.";

const OPEN = '<system-reminder>';
const CLOSE = '</system-reminder>';

export interface MemoryReminder {
  /** The reminder text block (starts with `<system-reminder>` and the header). */
  text: string;
  /** Characters cut from the end because the memory was longer than MAX_MEMORY_CHARS. */
  cutChars: number;
}

/**
 * The reminder stating `sources` (null when there is no memory at all). Longer than `maxChars` in all:
 * cut, with a note that says how much was left out.
 */
export function memoryReminder(
  sources: readonly MemorySource[],
  maxChars: number = MAX_MEMORY_CHARS,
): MemoryReminder | null {
  const present = sources.filter((s) => s.text.trim() !== '');
  if (present.length === 0) return null;
  let left = maxChars;
  let cutChars = 0;
  const parts: string[] = [];
  for (const s of present) {
    const text = s.text.replace(/\s+$/, '');
    if (left <= 0) {
      cutChars += text.length;
      continue;
    }
    const kept = text.length > left ? text.slice(0, left) : text;
    cutChars += text.length - kept.length;
    left -= kept.length;
    parts.push(`Contents of ${s.label}:\n\n${kept}`);
  }
  if (cutChars > 0) {
    parts.push(
      `[The memory was cut: ${cutChars} more characters were left out (at most ${maxChars} are read). Ask the user to shorten CLAUDE.md.]`,
    );
  }
  return { text: [OPEN, MEMORY_REMINDER_HEADER, '', parts.join('\n\n'), CLOSE].join('\n'), cutChars };
}

/** True for a text block that is a memory reminder. */
export function isMemoryReminder(block: { type: string; text?: string }): boolean {
  return (
    block.type === 'text' &&
    typeof block.text === 'string' &&
    block.text.startsWith(`${OPEN}\n${MEMORY_REMINDER_HEADER}`)
  );
}

/** The last memory reminder the transcript states (its text block), or undefined. */
export function lastMemoryReminder(messages: readonly MessageParam[]): TextBlockParam | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    const blocks = contentBlocks(m);
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j];
      if (b.type === 'text' && isMemoryReminder(b)) return { type: 'text', text: b.text };
    }
  }
  return undefined;
}

/**
 * The block to add to this turn's user message for the memory now in force, or null when the
 * transcript already states exactly this (or there is no memory and none was stated). A memory that
 * went away is stated as gone, so the model stops following it.
 */
export function memoryDelta(
  messages: readonly MessageParam[],
  current: MemoryReminder | null,
): TextBlockParam | null {
  const last = lastMemoryReminder(messages);
  if (current) return last?.text === current.text ? null : { type: 'text', text: current.text };
  if (!last || last.text.includes(MEMORY_GONE_NOTE)) return null;
  return { type: 'text', text: [OPEN, MEMORY_REMINDER_HEADER, '', MEMORY_GONE_NOTE, CLOSE].join('\n') };
}

/** What a reminder says when every memory file was removed. */
export const MEMORY_GONE_NOTE = 'There is no CLAUDE.md any more: earlier project memory no longer applies.';
