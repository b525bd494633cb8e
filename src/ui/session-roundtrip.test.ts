/**
 * Import takes back everything export writes: a session whose transcript holds every block kind tabcode
 * writes or passes through (tool_reference results of ToolSearch among them, images, documents, search
 * results, thinking, server tool blocks, stored cache_control) and whose view holds every item and card
 * kind, exported then imported, comes back identical; and it is still a valid request once repaired.
 * Then the stored form: the same record through IndexedDB (entries) and back.
 */
import { describe, expect, it } from 'vitest';
import { EVERY_BLOCK, EVERY_ITEM } from '../../e2e/fixtures/every-kind.ts';
import { parseSessionExport, toExport } from '../agent/session-export.ts';
import { createSessionsStore, newSessionRecord, type SessionRecord } from '../agent/sessions-store.ts';
import { ensureToolResultPairing, transcriptProblem } from '../core/messages.ts';
import { fromStoredView, STORED_VIEW_VERSION, toStoredView } from './stored-view.ts';

function record(): SessionRecord {
  return {
    ...newSessionRecord(1000, 's_round'),
    title: 'Every kind',
    messages: EVERY_BLOCK,
    messageCount: EVERY_BLOCK.length,
    view: toStoredView(EVERY_ITEM),
    usage: [
      {
        at: 1,
        model: 'claude-test',
        inputTokens: 10,
        outputTokens: 2,
        cacheReadTokens: 3,
        cacheWriteTokens: 4,
        sizes: { toolsChars: 1, systemChars: 2, messagesChars: 3 },
      },
    ],
    settings: { model: 'claude-test', maxTokens: 1024, permissionMode: 'acceptEdits' },
  };
}

describe('export → import round trip', () => {
  it('takes back every block kind and every view item, identical', () => {
    const text = toExport(record());
    const result = parseSessionExport(text, (v) => fromStoredView(v), 7000);
    if (!result.ok) throw new Error(result.reason);
    expect(result.record.messages).toEqual(EVERY_BLOCK);
    expect(result.record.view).toEqual({ version: STORED_VIEW_VERSION, items: EVERY_ITEM });
    expect(result.record.usage).toEqual(record().usage);
    expect(result.record.settings).toEqual(record().settings);
    // Exported again, it is the same file but for the new id and time.
    const again = JSON.parse(toExport(result.record));
    const first = JSON.parse(text);
    expect(again.session.messages).toEqual(first.session.messages);
    expect(again.session.view).toEqual(first.session.view);
  });

  it('the imported transcript, repaired for a request, still passes the check', () => {
    expect(transcriptProblem(EVERY_BLOCK)).toBeNull();
    expect(transcriptProblem(ensureToolResultPairing(EVERY_BLOCK))).toBeNull();
  });

  it('refuses a block the API does not know, and a tool_reference without a name, saying where', () => {
    const bad = structuredClone(JSON.parse(toExport(record())));
    bad.session.messages[2].content[0].content[0] = { type: 'tool_reference' };
    const r1 = parseSessionExport(JSON.stringify(bad));
    expect(r1.ok ? 'accepted' : r1.reason).toMatch(/session\.messages\.2\.content\.0\.content\.0\.tool_name/);
    bad.session.messages[2].content[0].content[0] = { type: 'script', src: 'x' };
    const r2 = parseSessionExport(JSON.stringify(bad));
    expect(r2.ok ? 'accepted' : r2.reason).toMatch(/The transcript is not valid/);
  });

  it('the stored form (entries in IndexedDB) gives back the same record', async () => {
    const store = createSessionsStore(`roundtrip-${Math.random()}`);
    await store.save(record());
    expect(await store.load('s_round')).toEqual(record());
  });
});
