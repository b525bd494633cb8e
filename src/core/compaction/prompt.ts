/**
 * The words of compaction: what the model is asked for when it summarizes, and how the summary opens
 * the compacted transcript. Our own wording.
 */

/** Appended to the conversation as the last user message of the summarization request. */
export function summaryInstructions(extra?: string, viewNote?: string): string {
  const lines = [
    'Stop working on the task for a moment: the conversation is about to be compacted, because it is close to the context limit. Write a summary that lets you (or another assistant) continue the work without the messages above. Do not call any tool: answer with text only.',
    '',
    'Put the summary inside <summary></summary> tags, with these sections:',
    '1. Task: what the user asked for, in their words where it matters, and every request or correction they made since.',
    '2. Decisions: what was decided and why (approaches taken, approaches rejected).',
    '3. Files: every file read, created or changed, with its path and what was done to it; key code as short snippets where exact text matters.',
    '4. Errors: errors met and how they were fixed, or that they are still open.',
    '5. Open todos: what is left to do, in order.',
    '6. Current work and next step: exactly where the work stopped and what comes next.',
    '',
    'Be complete about facts (paths, names, commands, numbers) and brief about everything else.',
  ];
  if (viewNote) lines.push('', viewNote);
  const more = extra?.trim();
  if (more) lines.push('', `Instructions from the user for this summary: ${more}`);
  return lines.join('\n');
}

/** The summary from the model's answer: the inside of <summary> tags when present, else all of it. */
export function extractSummary(answer: string): string {
  const m = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(answer);
  const text = (m ? m[1] : answer).trim();
  return text;
}

/** Heads the compacted transcript's first user message. */
export const COMPACTED_HEADER =
  'This conversation was compacted: its earlier messages were summarized to free context. The summary below stands in for them.';

/**
 * What the summary request says about a shortened view, so the summary does not take a cut for the
 * real content (the tools ran with their whole inputs).
 */
export function viewNote(shortened: number, dropped: number): string | undefined {
  const parts: string[] = [];
  if (shortened > 0)
    parts.push(
      `${shortened} long text${shortened === 1 ? ', tool input or tool result is' : 's, tool inputs or tool results are'} shortened above to their beginning and end, marked where characters were left out: only this view is shortened; the files and tool runs had the whole content.`,
    );
  if (dropped > 0)
    parts.push(
      `The ${dropped} oldest message${dropped === 1 ? ' is' : 's are'} left out above; summarize what is shown, and say that earlier history was lost.`,
    );
  return parts.length > 0 ? `Note: ${parts.join(' ')}` : undefined;
}

/** The first text of the compacted transcript; `tailKept`: the latest messages follow it. */
export function summaryMessageText(summary: string, summarized: number, tailKept = true): string {
  return [
    COMPACTED_HEADER,
    `(${summarized} message${summarized === 1 ? '' : 's'} summarized.)`,
    '',
    '<summary>',
    summary,
    '</summary>',
    '',
    tailKept
      ? 'Continue from where the work stopped, without asking the user to repeat anything; the latest messages follow as they were.'
      : 'Continue from where the work stopped, without asking the user to repeat anything.',
  ].join('\n');
}

/** True for the first text block of a compacted transcript. */
export function isSummaryText(text: string): boolean {
  return text.startsWith(COMPACTED_HEADER);
}

/** What the synthetic ToolSearch result after a compaction says beside its tool references. */
export const RELOADED_TOOLS_NOTE = 'Tools loaded before the conversation was compacted, loaded again:';

/** The assistant's note after the re-loaded tools (so the next user message does not follow a tool result). */
export const RELOADED_TOOLS_ACK = 'The tools loaded before the summary are loaded again.';
