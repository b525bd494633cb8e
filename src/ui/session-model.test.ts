/**
 * The session model on a real agent session (real SDK → mock API, just-bash sandbox, IndexedDB through
 * fake-indexeddb): what it shows, what it saves while a turn runs and when it ends, and the durability
 * property: every state a listener is shown is already in the store.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import {
  createSessionsStore,
  newSessionRecord,
  repairInterruptedTranscript,
  type SessionPatch,
  type SessionsStore,
} from '../agent/sessions-store.ts';
import { SYNTHETIC_TOOL_RESULT_MISSING } from '../core/constants.ts';
import { toolResults } from '../core/messages.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createSessionModel, type SessionModel } from './session-model.ts';
import { fromStoredView } from './stored-view.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

async function agent() {
  return createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test', permissionMode: 'bypassPermissions' },
    sandbox: await createJustBashSandbox({ files: { 'a.txt': 'a\n' } }),
    mcp: null,
  });
}

/** A store that records every patch it writes. */
function recording(store: SessionsStore) {
  const patches: SessionPatch[] = [];
  const wrapped: SessionsStore = {
    ...store,
    write: async (patch) => {
      patches.push(structuredClone(patch));
      await store.write?.(patch);
    },
  };
  return { store: wrapped, patches };
}

/** Ids of the calls a result answers in a stored transcript, without the synthetic "missing" ones. */
async function storedResults(store: SessionsStore, id: string): Promise<string[]> {
  const saved = await store.load(id);
  return (saved?.messages ?? []).flatMap((m) =>
    toolResults(m)
      .filter((r) => r.content !== SYNTHETIC_TOOL_RESULT_MISSING)
      .map((r) => r.tool_use_id),
  );
}

describe('session model', () => {
  it('saves every message, the view and the usage; later writes carry only what changed', async () => {
    const base = createSessionsStore(`model-test-${Math.random()}`);
    const { store, patches } = recording(base);
    const session = await agent();
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    api.script([
      {
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_r', name: 'Bash', input: { command: 'sleep 0.4; cat a.txt' } },
        ],
      },
      { content: [{ type: 'text', text: 'It says a.' }] },
    ]);
    await session.send('What is in a.txt?');
    await model.flush();

    const saved = await base.load(model.id);
    expect(saved?.title).toBe('What is in a.txt?');
    expect(saved?.turnOpen).toBe(false);
    expect(saved?.messages).toEqual(session.transcript());
    expect(saved?.usage).toHaveLength(2);
    expect(saved?.usage[0].sizes?.toolsChars).toBeGreaterThan(0);
    const view = fromStoredView(saved?.view);
    expect(view?.items.map((i) => i.kind)).toEqual(['user', 'assistant-text', 'tool', 'assistant-text']);
    // While the Bash call ran, a write had the turn open and the assistant's tool_use in it.
    const during = patches.find(
      (p) => p.record.turnOpen && p.messages.put.some(([i, m]) => i === 1 && m.role === 'assistant'),
    );
    expect(during).toBeDefined();
    // Patches hold changes only: replayed in order, every message a patch writes differs from the one
    // stored before it.
    const stored: string[] = [];
    const rewrites: number[] = [];
    for (const p of patches) {
      for (const [i, m] of p.messages.put) {
        if (stored[i] === JSON.stringify(m)) rewrites.push(i);
        stored[i] = JSON.stringify(m);
      }
      stored.length = p.messages.length;
    }
    expect(rewrites).toEqual([]);
    expect(model.getState().save).toBe('saved');
    await model.dispose();
    await session.dispose();
  });

  it('shows only what is committed: at every notification the store already holds each finished result', async () => {
    const store = createSessionsStore(`model-test-${Math.random()}`);
    const session = await agent();
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    const checks: Promise<void>[] = [];
    const failures: string[] = [];
    model.subscribe(() => {
      const state = model.getState();
      const done = state.transcript.items.flatMap((i) =>
        i.kind === 'tool' && i.card.status === 'done' ? [i.card.toolUseId] : [],
      );
      const users = state.transcript.items.filter((i) => i.kind === 'user').length;
      checks.push(
        (async () => {
          const saved = await store.load(model.id);
          const results = await storedResults(store, model.id);
          for (const id of done) if (!results.includes(id)) failures.push(`${id} shown done, not stored`);
          const prompts = (saved?.messages ?? []).filter(
            (m) => m.role === 'user' && toolResults(m).length === 0,
          ).length;
          if (prompts < users) failures.push(`${users} prompts shown, ${prompts} stored`);
        })(),
      );
    });
    // One message, two calls: the quick one finishes while the slow one still runs.
    api.script([
      {
        content: [
          { type: 'tool_use', id: 'toolu_quick', name: 'Bash', input: { command: 'echo quick > q.txt' } },
          { type: 'tool_use', id: 'toolu_slow', name: 'Bash', input: { command: 'sleep 0.5; echo slow' } },
        ],
      },
      { content: [{ type: 'text', text: 'Both ran.' }] },
    ]);
    const run = session.send('Run both.');
    // The quick call's result reaches the store while the slow one runs: a reload now keeps it.
    await expect.poll(() => storedResults(store, model.id), { timeout: 3000 }).toEqual(['toolu_quick']);
    const open = await store.load(model.id);
    expect(open?.turnOpen).toBe(true);
    await run;
    await model.flush();
    await Promise.all(checks);
    expect(failures).toEqual([]);
    expect(checks.length).toBeGreaterThanOrEqual(2);
    expect(await storedResults(store, model.id)).toEqual(['toolu_quick', 'toolu_slow']);
    await model.dispose();
    await session.dispose();
  });

  it('a full storage is shown, nothing is dropped, and the retry writes it all', async () => {
    const base = createSessionsStore(`model-test-${Math.random()}`);
    let full = true;
    const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const store: SessionsStore = {
      ...base,
      save: async (r) => {
        if (full) throw quota();
        await base.save(r);
      },
      write: async (p) => {
        if (full) throw quota();
        await base.write?.(p);
      },
    };
    const session = await agent();
    const model: SessionModel = createSessionModel({ record: newSessionRecord(), agent: session, store });
    api.script([{ content: [{ type: 'text', text: 'Hello.' }] }]);
    await session.send('Hi');
    await model.flush();
    // The page still shows the turn, says it is not saved, and why.
    expect(model.getState().save).toBe('error');
    expect(model.getState().saveError).toMatch(/storage is full/);
    expect(model.getState().transcript.items.map((i) => i.kind)).toEqual(['user', 'assistant-text']);
    expect(await base.load(model.id)).toBeUndefined();
    full = false;
    await expect.poll(() => model.getState().save, { timeout: 6000 }).toBe('saved');
    const saved = await base.load(model.id);
    expect(saved?.messages).toEqual(session.transcript());
    await model.dispose();
    await session.dispose();
  });

  it('a read-only model (another tab has the session) shows events and never writes', async () => {
    const base = createSessionsStore(`model-test-${Math.random()}`);
    const { store, patches } = recording(base);
    let saves = 0;
    const counting = { ...store, save: async () => void saves++ };
    const session = await agent();
    const model = createSessionModel({
      record: newSessionRecord(),
      agent: session,
      store: counting,
      readOnly: true,
    });
    api.script([{ content: [{ type: 'text', text: 'Hello.' }] }]);
    await session.send('Hi');
    await model.flush();
    expect(model.getState().save).toBe('readonly');
    expect(model.getState().transcript.items).toHaveLength(2);
    expect(saves + patches.length).toBe(0);
    await model.dispose();
    await session.dispose();
  });

  it('a turn repaired on restore is written as repaired (the store held the cut-off one)', async () => {
    const store = createSessionsStore(`model-test-${Math.random()}`);
    const cut = {
      ...newSessionRecord(),
      turnOpen: true,
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
        {
          role: 'assistant' as const,
          content: [
            { type: 'tool_use' as const, id: 'toolu_x', name: 'Bash', input: { command: 'sleep 9' } },
          ],
        },
      ],
    };
    await store.save(cut);
    const stored = (await store.load(cut.id)) as typeof cut;
    const repaired = { ...stored, turnOpen: false, messages: repairInterruptedTranscript(stored.messages) };
    const session = await agent();
    const model = createSessionModel({ record: repaired, agent: session, store, stored, saveNow: true });
    await model.flush();
    const saved = await store.load(cut.id);
    expect(saved?.turnOpen).toBe(false);
    expect(saved?.messages).toEqual(repaired.messages);
    await model.dispose();
    await session.dispose();
  });

  it('a new session that shows only a local entry writes nothing and does not stay "saving"', async () => {
    const base = createSessionsStore(`model-test-${Math.random()}`);
    const { store, patches } = recording(base);
    const model = createSessionModel({ record: newSessionRecord(), agent: await agent(), store });
    model.local({ type: 'local-command', input: 'ls', output: 'a.txt\n', tone: 'info' });
    await model.flush();
    expect(model.getState().transcript.items.length).toBe(1);
    expect(model.getState().save).toBe('saved');
    expect(patches).toEqual([]);
    expect(await base.load(model.id)).toBeUndefined();
  });

  it('renames and keeps the title across saves', async () => {
    const store = createSessionsStore(`model-test-${Math.random()}`);
    const session = await agent();
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    let notified = 0;
    model.subscribe(() => notified++);
    model.rename('  My session  ');
    model.rename('My session');
    await model.flush();
    expect((await store.load(model.id))?.title).toBe('My session');
    expect(notified).toBe(1);
    expect(model.getState().title).toBe('My session');
    await model.dispose();
    await session.dispose();
  });

  it('flush writes what changed up to the call and returns, also while changes keep coming', async () => {
    const base = createSessionsStore(`model-test-${Math.random()}`);
    let model: SessionModel | undefined;
    let changing = true;
    let writes = 0;
    /** Every write takes a moment, and something changes while it runs (a background command's output). */
    const slowly = async (write: () => Promise<void>) => {
      writes++;
      await write();
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (changing) model?.local({ type: 'local-notice', notice: 'missing-key' });
    };
    const store: SessionsStore = {
      ...base,
      save: (record) => slowly(() => base.save(record)),
      write: (patch) => slowly(async () => base.write?.(patch)),
    };
    const session = await agent();
    model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    model.rename('Busy');
    const flushed = model.flush().then(() => 'flushed');
    const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000));
    const outcome = await Promise.race([flushed, waited]);
    changing = false;
    expect(outcome).toBe('flushed');
    expect(writes).toBeLessThanOrEqual(2);
    expect((await base.load(model.id))?.title).toBe('Busy');
    expect(model.getState().title).toBe('Busy');
    await model.dispose();
    await session.dispose();
  });
});
