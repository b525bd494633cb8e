/**
 * The repair of a session a reload cut off mid-turn (session-model.ts restoreRecord loads it then): each
 * call that was running gets the result the model can act on (the output it had printed, what a
 * sub-agent had done, answers sent just before the reload, a todo list that was shown), then the
 * transcript is repaired (every tool_use answered, the interrupt marker added). Pure.
 */

import type { SessionRecord } from '../agent/sessions-store.ts';
import type { MessageParam, ToolResultBlockParam } from '../core/messages.ts';
import type { KeptAnswers } from './kept-answers.ts';
import type { ToolCardState, TranscriptItem } from './transcript-state.ts';

/** What the repair takes from the session model (passed in: this module stays out of the first load). */
export interface RepairHelpers {
  withToolResult(messages: MessageParam[], block: ToolResultBlockParam): MessageParam[];
  itemsFromMessages(messages: readonly MessageParam[]): TranscriptItem[];
  repairInterruptedTranscript(messages: MessageParam[]): MessageParam[];
}

/** Most characters of a stopped call's output given to the model (its end: where it stopped). */
export const OUTPUT_SO_FAR_CHARS = 30_000;

/**
 * The transcript with a result for each call the reload stopped while it ran and whose card showed
 * output (a Bash command's lines so far): the model is told it was stopped and what it printed, as when
 * Esc stops it, rather than that it never completed (it ran partway: running it again repeats that). A
 * call that had done its part (keptResult) gets the result it would have had.
 */
function withOutputSoFar(
  messages: MessageParam[],
  items: readonly TranscriptItem[],
  answers: KeptAnswers,
  { withToolResult }: RepairHelpers,
): MessageParam[] {
  let out = messages;
  for (const item of items) {
    if (item.kind !== 'tool' || item.card.result) continue;
    const kept = keptResult(item.card, answers);
    if (kept) {
      out = withToolResult(out, { type: 'tool_result', tool_use_id: item.card.toolUseId, content: kept });
      continue;
    }
    const shown = item.card.subagent
      ? subagentSoFar(item.card.subagent.transcript.items, 0)
      : item.card.progress;
    if (!shown.trim()) continue;
    const tail = shown.length > OUTPUT_SO_FAR_CHARS ? `…${shown.slice(-OUTPUT_SO_FAR_CHARS)}` : shown;
    out = withToolResult(out, {
      type: 'tool_result',
      tool_use_id: item.card.toolUseId,
      is_error: true,
      content: item.card.subagent
        ? `The page was reloaded while this sub-agent worked, which stopped it before it finished. What it had done so far (its tool calls ran; running it again repeats them):\n${tail}`
        : `The page was reloaded while this call ran, which stopped it before it finished. Its output so far:\n${tail}`,
    });
  }
  return out;
}

/**
 * The result of a call that had done what it does when the reload stopped it, or undefined: an
 * AskUserQuestion whose answers were sent, a TodoWrite that was running (its list passed the tool's
 * checks and was set: the strip and the Todos panel showed it). A list is state, not an action: it is
 * kept as shown, and the model is told so rather than to write it again.
 */
function keptResult(card: ToolCardState, answers: KeptAnswers): string | undefined {
  if (card.name === 'AskUserQuestion') {
    const answered = answers[card.toolUseId];
    return answered && answeredText(answered);
  }
  const todos = (card.input as { todos?: unknown } | undefined)?.todos;
  if (card.name !== 'TodoWrite' || card.status !== 'running' || !Array.isArray(todos)) return undefined;
  return todosKeptText(todos);
}

/**
 * What the model is told of a todo list the reload came just after: TodoWrite's own result, and the list
 * (as the tool took it: a running call's input passed its checks).
 */
function todosKeptText(todos: readonly { content?: unknown; status?: unknown }[]): string {
  const mark: Record<string, string> = { completed: '[x]', in_progress: '[~]' };
  const lines = todos.map((t) => `${mark[String(t?.status)] ?? '[ ]'} ${String(t?.content)}`).join('\n');
  return `Todos have been modified successfully (the page was reloaded just after; the list was kept as shown):\n${lines || '(empty list)'}\n\nKeep using the todo list to track your progress, and carry on with the current task if there is one.`;
}

/** Answers sent just before a reload, as the model reads answers (AskUserQuestion's result). */
function answeredText(answers: Readonly<Record<string, string>>): string {
  const lines = Object.entries(answers).map(([q, a]) => `- ${q}\n  Answer: ${a.trim() ? a : '(no answer)'}`);
  return `The user answered your questions (just before the page was reloaded):\n${lines.join('\n')}\n\nCarry on with these answers in mind.`;
}

/** Most characters of one tool call's input and of its output in a sub-agent's account. */
const SUBAGENT_PART_CHARS = 2000;
const cut = (s: string) => (s.length > SUBAGENT_PART_CHARS ? `${s.slice(0, SUBAGENT_PART_CHARS)}…` : s);

/**
 * What a sub-agent cut off by a reload had shown: its text, and each tool call with its input and its
 * result (or the output it printed before it stopped), nested sub-agents indented.
 */
function subagentSoFar(items: readonly TranscriptItem[], depth: number): string {
  const pad = '  '.repeat(depth);
  const lines: string[] = [];
  for (const item of items) {
    if (item.kind === 'assistant-text' && item.text.trim())
      lines.push(`${pad}Said: ${cut(item.text.trim())}`);
    if (item.kind !== 'tool') continue;
    const { card } = item;
    const input = card.input === undefined ? card.inputJson : JSON.stringify(card.input);
    lines.push(`${pad}Called ${card.name} ${cut(input)}`);
    if (card.subagent) lines.push(subagentSoFar(card.subagent.transcript.items, depth + 1));
    else if (card.result)
      lines.push(`${pad}  ${card.result.isError ? 'Error' : 'Result'}: ${cut(card.result.content)}`);
    else if (card.progress.trim())
      lines.push(`${pad}  Stopped by the reload; its output so far: ${cut(card.progress)}`);
    else lines.push(`${pad}  Stopped by the reload before it printed anything.`);
  }
  return lines.filter((l) => l.trim()).join('\n');
}

/** How the card of a background command the reload stopped reads (and its status in the model's note). */
export const STOPPED_BY_RELOAD = 'stopped by the page reload';
/**
 * How such a card reads when its session was not open when the page reloaded: its card stopped
 * following the command when the session was left, so it may have ended before the reload.
 */
export const GONE_SINCE_LEFT =
  'no longer running: it ran on after its session was left, until the page reload at the latest';

/**
 * The items with every card that followed a background command still running when the page was last
 * saved, and not running now (`running`: the IDs the sandbox has), marked as stopped by the reload: it
 * keeps the output it showed. `notes`: what the model is told of each (sub-agents' cards included).
 */
function stoppedBackground(
  items: readonly TranscriptItem[],
  running: ReadonlySet<string>,
  notes: string[],
  seenToReload: boolean,
): TranscriptItem[] {
  return items.map((item) => {
    if (item.kind !== 'tool') return item;
    const { card } = item;
    if (card.subagent) {
      const subItems = stoppedBackground(card.subagent.transcript.items, running, notes, seenToReload);
      const transcript = { ...card.subagent.transcript, items: subItems };
      return { ...item, card: { ...card, subagent: { ...card.subagent, transcript } } };
    }
    const view = card.result?.view;
    if (!card.result || view?.kind !== 'terminal' || !view.running || !view.backgroundId) return item;
    if (running.has(view.backgroundId)) return item;
    const command = (card.input as { command?: unknown } | undefined)?.command;
    const text = typeof command === 'string' ? command : '';
    notes.push(
      seenToReload
        ? stoppedNote(view.backgroundId, text, view.stdout)
        : goneNote(view.backgroundId, text, view.stdout),
    );
    const { running: _running, ...rest } = view;
    const state = seenToReload ? STOPPED_BY_RELOAD : GONE_SINCE_LEFT;
    return { ...item, card: { ...card, result: { ...card.result, view: { ...rest, state } } } };
  });
}

/** What the model is told of a background command the reload stopped, in BashOutput's form. */
function stoppedNote(id: string, command: string, shown: string): string {
  const output = shown.replace(/\s+$/, '');
  return [
    `The page was reloaded, which stopped the background command ${id}${command ? ` (${command})` : ''}: it no longer runs, and BashOutput and KillShell no longer know its ID. What it had printed up to the reload:`,
    `<status>${STOPPED_BY_RELOAD}</status>`,
    output ? `<output>\n${output}\n</output>` : '<output>(no output)</output>',
    'Start it again if it is still needed.',
  ].join('\n');
}

/**
 * What the model is told of a background command whose session was not open when the page reloaded:
 * it no longer runs, but it may have ended (and done its work) before the reload.
 */
function goneNote(id: string, command: string, shown: string): string {
  const output = shown.replace(/\s+$/, '');
  return [
    `The background command ${id}${command ? ` (${command})` : ''} no longer runs, and BashOutput and KillShell no longer know its ID: the page was reloaded since its session was last open. It was still running when its session was left and may have finished before the reload. What it had printed by then:`,
    `<status>${GONE_SINCE_LEFT}</status>`,
    output ? `<output>\n${output}\n</output>` : '<output>(no output)</output>',
    'Check what it did (its files, its effects) before starting it again.',
  ].join('\n');
}

/** The messages with `text` in a user message at their end (the next prompt joins it). */
function withUserNote(messages: MessageParam[], text: string): MessageParam[] {
  const block = { type: 'text' as const, text };
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return [...messages, { role: 'user', content: [block] }];
  const content =
    typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [...messages.slice(0, -1), { role: 'user', content: [...content, block] }];
}

/**
 * The record as the page opens it after a reload, and the view's items: a turn the reload cut off is
 * repaired (answered cards show their answers, a kept todo list its result), and background commands the
 * reload stopped read so on their cards while the model is told with the next prompt. `running`: the
 * background command IDs the sandbox has (a session switched back to within the page: they still run);
 * null when this page cannot know (another tab holds the session, and its commands run there): the
 * cards are left as saved and the model is told nothing.
 */
export function repairRecord(
  record: SessionRecord,
  stored: readonly TranscriptItem[] | undefined,
  answers: KeptAnswers,
  helpers: RepairHelpers,
  running: readonly string[] | null = [],
  seenToReload = true,
): { rec: SessionRecord; items: TranscriptItem[] } {
  const notes: string[] = [];
  const shown =
    stored && (running ? stoppedBackground(stored, new Set(running), notes, seenToReload) : stored);
  let messages = record.messages;
  if (record.turnOpen)
    messages = helpers.repairInterruptedTranscript(withOutputSoFar(messages, stored ?? [], answers, helpers));
  if (notes.length)
    messages = withUserNote(messages, `<system-reminder>\n${notes.join('\n\n')}\n</system-reminder>`);
  const rec: SessionRecord = { ...record, messages, turnOpen: false };
  // A card whose answers were sent or whose list was set just before the reload shows the result the
  // model has.
  const items = (shown ?? helpers.itemsFromMessages(rec.messages)).map((item) => {
    const kept =
      record.turnOpen && item.kind === 'tool' && !item.card.result
        ? keptResult(item.card, answers)
        : undefined;
    return kept && item.kind === 'tool'
      ? {
          ...item,
          card: {
            ...item.card,
            status: 'done' as const,
            result: { isError: false, content: kept, durationMs: 0 },
          },
        }
      : item;
  });
  return { rec, items };
}
