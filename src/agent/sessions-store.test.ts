import { createStore, setMany } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { INTERRUPT_MESSAGE } from '../core/constants.ts';
import type { MessageParam } from '../core/messages.ts';
import { parseSessionExport, toExport } from './session-export.ts';
import {
  createSessionsStore,
  diffRecord,
  listsOf,
  metaOf,
  newSessionRecord,
  repairInterruptedTranscript,
  type SessionRecord,
  titleFromPrompt,
} from './sessions-store.ts';

const toolTurn: MessageParam[] = [
  { role: 'user', content: [{ type: 'text', text: 'run it' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Running.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 30' } },
    ],
  },
];

function record(over: Partial<SessionRecord> = {}): SessionRecord {
  return { ...newSessionRecord(1000, 's_test'), title: 'Test', messages: toolTurn, messageCount: 2, ...over };
}

describe('sessions store (IndexedDB)', () => {
  it('saves, lists most recent first, loads and removes', async () => {
    const store = createSessionsStore(`test-${Math.random()}`);
    await store.save(record({ id: 'a', updatedAt: 1 }));
    await store.save(record({ id: 'b', updatedAt: 2, title: 'B' }));
    expect((await store.list()).map((m) => [m.id, m.title, m.messageCount])).toEqual([
      ['b', 'B', 2],
      ['a', 'Test', 2],
    ]);
    expect((await store.load('a'))?.messages).toEqual(toolTurn);
    await store.remove('a');
    expect((await store.list()).map((m) => m.id)).toEqual(['b']);
    expect(await store.load('a')).toBeUndefined();
  });
});

describe('entries: a save writes what changed', () => {
  const view = (n: number) => ({
    version: 1,
    items: Array.from({ length: n }, (_, i) => ({ id: `item:${i}` })),
  });

  it('a patch rewrites only changed entries, cuts lists that shrank, and loads back whole', async () => {
    const store = createSessionsStore(`test-${Math.random()}`);
    const first = record({ id: 'p', view: view(3) });
    await store.save(first);
    const loaded = (await store.load('p')) as SessionRecord;
    expect(loaded.messages).toEqual(toolTurn);
    expect(loaded.view).toEqual(view(3));
    // Loaded objects are new: the diff compares by value, so nothing but the new result is written.
    const next: SessionRecord = {
      ...loaded,
      messages: [
        ...toolTurn.map((m) => structuredClone(m)),
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
      ],
      view: view(2),
    };
    const patch = diffRecord(listsOf(loaded), next);
    expect(patch.messages.put.map(([i]) => i)).toEqual([2]);
    expect(patch.items).toEqual({ length: 2, put: [] });
    await store.write?.(patch);
    const after = (await store.load('p')) as SessionRecord;
    expect(after.messages).toHaveLength(3);
    expect(after.view).toEqual(view(2));
    expect((await store.list())[0].messageCount).toBe(3);
  });

  it('a format 1 record (one entry per session) loads, and is rewritten as entries', async () => {
    const name = `test-${Math.random()}`;
    const old = record({ id: 'legacy', view: view(1) });
    await setMany(
      [
        ['meta:legacy', metaOf(old)],
        ['data:legacy', old],
      ],
      createStore(name, 'records'),
    );
    const store = createSessionsStore(name);
    expect(await store.load('legacy')).toEqual(old);
    // A patch on top of it (as the page writes after opening it) keeps every message.
    await store.write?.(diffRecord(listsOf(old), { ...old, title: 'Renamed' }));
    const after = await store.load('legacy');
    expect(after?.title).toBe('Renamed');
    expect(after?.messages).toEqual(toolTurn);
    await store.remove('legacy');
    expect(await store.load('legacy')).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });
});

describe('repairInterruptedTranscript', () => {
  it('answers the unfinished tool_use and ends the turn with the interrupt marker', () => {
    const repaired = repairInterruptedTranscript(toolTurn);
    expect(repaired).toHaveLength(3);
    const last = repaired[2];
    expect(last.role).toBe('user');
    const blocks = Array.isArray(last.content) ? last.content : [];
    expect(blocks[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(blocks.at(-1)).toEqual({ type: 'text', text: INTERRUPT_MESSAGE });
  });

  it('keeps the results saved before the cut; only the call that never finished gets a synthetic one', () => {
    const twoCalls: MessageParam[] = [
      toolTurn[0],
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'Write', input: {} },
          { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'File created.' }] },
    ];
    const repaired = repairInterruptedTranscript(twoCalls);
    const blocks = repaired[2].content as Array<{ type: string; tool_use_id?: string; content?: unknown }>;
    expect(blocks.map((b) => [b.type, b.tool_use_id, b.content])).toEqual([
      ['tool_result', 'toolu_a', 'File created.'],
      ['tool_result', 'toolu_b', expect.stringContaining('missing')],
      ['text', undefined, undefined],
    ]);
  });

  it('a turn cut before any reply gets the marker after the prompt; an empty one stays empty', () => {
    const repaired = repairInterruptedTranscript([toolTurn[0]]);
    expect(repaired).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'run it' },
          { type: 'text', text: INTERRUPT_MESSAGE },
        ],
      },
    ]);
    expect(repairInterruptedTranscript([])).toEqual([]);
  });
});

describe('export and import', () => {
  it('round-trips a record under a new id, never carrying a key', () => {
    const text = toExport(record({ view: { version: 1, items: [] } }));
    const result = parseSessionExport(text, (v) => v, 5000);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record.id).not.toBe('s_test');
    expect(result.record.messages).toEqual(toolTurn);
    expect(result.record.view).toEqual({ version: 1, items: [] });
    expect(result.record.updatedAt).toBe(5000);
    expect(result.record.turnOpen).toBe(false);
    expect(text).not.toMatch(/apiKey|sk-ant/);
  });

  it('refuses malformed files with a reason', () => {
    const bad = (text: string) => {
      const r = parseSessionExport(text);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(bad('{')).toMatch(/not valid JSON/);
    expect(bad(JSON.stringify({ format: 'x', version: 1, session: {} }))).toMatch(
      /format must be "tabcode-session"/,
    );
    const good = JSON.parse(toExport(record()));
    expect(bad(JSON.stringify({ ...good, version: 2 }))).toMatch(/version must be 1/);
    const noRole = structuredClone(good);
    noRole.session.messages[0].role = 'system';
    expect(bad(JSON.stringify(noRole))).toMatch(/session\.messages\.0\.role/);
    const orphan = structuredClone(good);
    orphan.session.messages = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }] },
    ];
    expect(bad(JSON.stringify(orphan))).toMatch(/unknown tool_use toolu_x/);
    const useFromUser = structuredClone(good);
    useFromUser.session.messages[0].content = [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }];
    expect(bad(JSON.stringify(useFromUser))).toMatch(/from the user but has a tool_use/);
  });

  it('keeps a view only when the checker accepts it', () => {
    const text = toExport(record({ view: { junk: true } }));
    const r = parseSessionExport(text, () => null);
    expect(r.ok && r.record.view).toBeNull();
  });
});

describe('titleFromPrompt', () => {
  it('takes the first line, collapsed and cut to 60 characters', () => {
    expect(titleFromPrompt('  Fix   the bug\nin stats.js')).toBe('Fix the bug');
    expect(titleFromPrompt('x'.repeat(80))).toHaveLength(60);
    expect(titleFromPrompt('   ')).toBe('New session');
  });
});

describe('a write in slices (one request per task here): still one transaction', () => {
  const many = (n: number, extra?: unknown) => ({
    version: 1,
    items: [
      ...Array.from({ length: n }, (_, i) => ({ id: `item:${i}`, text: `card ${i}` })),
      ...(extra ? [extra] : []),
    ],
  });

  it('writes every entry and loads back whole', async () => {
    const store = createSessionsStore(`test-${Math.random()}`, 0);
    const full = record({ id: 'w', view: many(200) });
    await store.save(full);
    expect(await store.load('w')).toEqual({ ...full, messageCount: toolTurn.length });
    const next = record({ id: 'w', title: 'Renamed', view: many(250) });
    const stored = (await store.load('w')) as SessionRecord;
    await store.write?.(diffRecord(listsOf(stored), next));
    expect(await store.load('w')).toEqual({ ...next, messageCount: toolTurn.length });
  });

  it('a request that throws late in the write leaves nothing of it and rejects with its error', async () => {
    const store = createSessionsStore(`test-${Math.random()}`, 0);
    const before = record({ id: 'f', view: many(3) });
    await store.save(before);
    // A function cannot be cloned: the put of the last entry throws, after 100 entries were issued in
    // earlier tasks of the same transaction.
    const bad = record({ id: 'f', title: 'Half', view: many(100, { id: 'bad', run: () => 1 }) });
    const stored = (await store.load('f')) as SessionRecord;
    await expect(store.write?.(diffRecord(listsOf(stored), bad))).rejects.toMatchObject({
      name: 'DataCloneError',
    });
    expect(await store.load('f')).toEqual({ ...before, messageCount: toolTurn.length });
    expect((await store.list()).map((m) => m.title)).toEqual(['Test']);
  });
});
