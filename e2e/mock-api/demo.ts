/**
 * The demo script of the CLI: a text reply, then a Read of README.md, then a final text about the result,
 * and again. Each reply is chosen by the conversation the request carries, not by a counter: a new
 * session, another tab or a reload starts at the greeting, whatever other conversations did before.
 */
import type { MockApi, RecordedRequest, ScriptedTurn, TurnSpec } from './types.ts';

type Message = RecordedRequest['body']['messages'][number];

/** Text of the last tool_result in the request, if any. */
function lastToolResult(req: RecordedRequest): string | undefined {
  const last = req.body.messages.at(-1);
  if (!last || typeof last.content === 'string') return undefined;
  for (const block of last.content) {
    if (block.type !== 'tool_result') continue;
    if (typeof block.content === 'string') return block.content;
    return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
  }
  return undefined;
}

const GREETING =
  "Hello! I'm the mock model of tabcode's test server. Send another message and I will read " +
  'README.md with the Read tool.';

/** The text of an assistant message. */
const textOf = (m: Message): string =>
  typeof m.content === 'string'
    ? m.content
    : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

/** The demo's next step for this conversation. */
function nextTurn(req: RecordedRequest, chunkDelayMs: number): TurnSpec {
  const last = req.body.messages.at(-1);
  const hasResult =
    last?.role === 'user' &&
    typeof last.content !== 'string' &&
    last.content.some((b) => b.type === 'tool_result');
  if (hasResult) {
    const result = lastToolResult(req);
    const summary =
      result === undefined
        ? 'I did not get the README back.'
        : `The Read tool returned ${result.length} characters, starting with: ${JSON.stringify(result.slice(0, 80))}`;
    return {
      chunkDelayMs,
      content: [{ type: 'text', text: `${summary}\n\nThat is the whole demo; it starts over.` }],
    };
  }
  const previous = req.body.messages.filter((m) => m.role === 'assistant').at(-1);
  if (previous && textOf(previous).includes(GREETING))
    return {
      chunkDelayMs,
      content: [
        { type: 'text', text: 'Let me read the README first.' },
        { type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } },
      ],
    };
  return { chunkDelayMs, content: [{ type: 'text', text: GREETING }] };
}

/** The demo: one scripted turn that answers by the conversation and queues itself again. */
export function demoScript(api: MockApi, chunkDelayMs: number): ScriptedTurn[] {
  return [
    (req) => {
      api.push(...demoScript(api, chunkDelayMs));
      return nextTurn(req, chunkDelayMs);
    },
  ];
}
