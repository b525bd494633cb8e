/**
 * A session whose cards followed background commands, opened again: after a reload (the sandbox has no
 * such command) the cards read stopped by the reload with what they showed, the model gets one note; a
 * session switched back to within the page (the command still runs) is left to the card's following.
 */
import { describe, expect, it } from 'vitest';
import { newSessionRecord, type SessionRecord } from '../agent/sessions-store.ts';
import type { MessageParam } from '../core/messages.ts';
import { restoreRecord } from './session-model.ts';
import { GONE_SINCE_LEFT, STOPPED_BY_RELOAD } from './session-repair.ts';
import { fromStoredView, toStoredView } from './stored-view.ts';
import type { TranscriptItem } from './transcript-state.ts';

const ID = 'bg-1-abcd';
const command = 'npm run dev';
const messages: MessageParam[] = [
  { role: 'user', content: 'start the server' },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_bg', name: 'Bash', input: { command, run_in_background: true } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bg', content: `Started ${ID}.` }] },
  { role: 'assistant', content: [{ type: 'text', text: 'It runs.' }] },
];
const card: TranscriptItem = {
  kind: 'tool',
  id: 'tool:toolu_bg',
  card: {
    toolUseId: 'toolu_bg',
    name: 'Bash',
    status: 'done',
    inputJson: '',
    input: { command, run_in_background: true },
    progress: '',
    result: {
      isError: false,
      content: `Started ${ID}.`,
      durationMs: 3,
      view: {
        kind: 'terminal',
        stdout: 'listening on 5173\n',
        stderr: '',
        exitCode: 0,
        backgroundId: ID,
        running: true,
        state: `running in the background (${ID})`,
      },
    },
  },
};

function saved(): SessionRecord {
  const items: TranscriptItem[] = [{ kind: 'user', id: 'item:1', text: 'start the server' }, card];
  return { ...newSessionRecord(1000, 's1'), messages, turnOpen: false, view: toStoredView(items) };
}

const viewOf = (items: readonly TranscriptItem[]) => {
  const item = items.find((i) => i.kind === 'tool');
  return item?.kind === 'tool' ? item.card.result?.view : undefined;
};

describe('restoring cards of background commands', () => {
  it('after a reload: stopped by it, with the output shown, and one note for the model', async () => {
    const { rec, transcript, repaired } = await restoreRecord(saved());
    expect(repaired).toBe(true);
    const view = viewOf(transcript.items);
    expect(view).toMatchObject({ kind: 'terminal', stdout: 'listening on 5173\n', state: STOPPED_BY_RELOAD });
    expect(view && 'running' in view).toBe(false);
    // No "interrupted" marker: the turn had ended.
    expect(transcript.items.some((i) => i.kind === 'notice')).toBe(false);
    expect(rec.messages.slice(0, 4)).toEqual(messages);
    const note = JSON.stringify(rec.messages[4]);
    expect(rec.messages[4].role).toBe('user');
    expect(note).toContain(`stopped the background command ${ID} (${command})`);
    expect(note).toContain(`<status>${STOPPED_BY_RELOAD}</status>`);
    expect(note).toContain('listening on 5173');

    // Saved so and opened again: nothing more to repair, nothing said twice.
    const again = { ...rec, view: toStoredView(transcript.items) };
    expect(viewOf(fromStoredView(again.view)?.items ?? [])).toEqual(view);
    const second = await restoreRecord(again);
    expect(second.repaired).toBe(false);
    expect(second.rec.messages).toEqual(rec.messages);
  });

  it('a session opened after the reload that was not open at it: the command may have ended since it was left', async () => {
    // Its card stopped following the command when the session was left: "stopped by the reload", and
    // "start it again", may be false of a command that ended meanwhile (and did its work).
    const { rec, transcript } = await restoreRecord(saved(), {}, [], false);
    expect(viewOf(transcript.items)).toMatchObject({ stdout: 'listening on 5173\n', state: GONE_SINCE_LEFT });
    const note = JSON.stringify(rec.messages[4]);
    expect(note).toContain('may have finished before the reload');
    expect(note).toContain('Check what it did');
    expect(note).not.toContain('which stopped');
  });

  it('a session switched back to while its command runs is left as it is', async () => {
    const record = saved();
    const { rec, transcript } = await restoreRecord(record, {}, [ID]);
    expect(viewOf(transcript.items)).toMatchObject({ running: true, stdout: 'listening on 5173\n' });
    expect(rec.messages).toEqual(messages);
  });

  it('a session another tab holds (its commands run there) is left as saved, and the model is told nothing', async () => {
    const { rec, transcript } = await restoreRecord(saved(), {}, null);
    expect(viewOf(transcript.items)).toMatchObject({ running: true, stdout: 'listening on 5173\n' });
    expect(rec.messages).toEqual(messages);
  });
});
