/**
 * The session model on a real agent session (real SDK → mock API, just-bash sandbox): what it shows and
 * what it saves to IndexedDB while a turn runs and when it ends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import { createSessionsStore, newSessionRecord, type SessionRecord } from '../agent/sessions-store.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createSessionModel } from './session-model.ts';
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

describe('session model', () => {
  it('saves every message, the view and the usage; a save during the turn marks it open', async () => {
    const store = createSessionsStore(`model-test-${Math.random()}`);
    const session = await agent();
    const saves: SessionRecord[] = [];
    const saving = {
      ...store,
      save: async (r: SessionRecord) => {
        saves.push(structuredClone(r));
        await store.save(r);
      },
    };
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store: saving });
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

    const saved = await store.load(model.id);
    expect(saved?.title).toBe('What is in a.txt?');
    expect(saved?.turnOpen).toBe(false);
    expect(saved?.messages).toEqual(session.transcript());
    expect(saved?.usage).toHaveLength(2);
    expect(saved?.usage[0].sizes?.toolsChars).toBeGreaterThan(0);
    const view = fromStoredView(saved?.view);
    expect(view?.items.map((i) => i.kind)).toEqual(['user', 'assistant-text', 'tool', 'assistant-text']);
    // While the Bash call ran, a save had the turn open and the assistant's tool_use in the messages.
    const during = saves.find((r) => r.turnOpen && r.messages.length === 2);
    expect(during?.messages[1].role).toBe('assistant');
    expect(model.getState().save).toBe('saved');
    await model.dispose();
    await session.dispose();
  });

  it('renames and keeps the title across saves; listeners are told once per frame at most', async () => {
    const store = createSessionsStore(`model-test-${Math.random()}`);
    const session = await agent();
    const model = createSessionModel({ record: newSessionRecord(), agent: session, store });
    let notified = 0;
    model.subscribe(() => notified++);
    model.rename('  My session  ');
    model.rename('My session');
    await model.flush();
    expect((await store.load(model.id))?.title).toBe('My session');
    await new Promise((r) => setTimeout(r, 40));
    expect(notified).toBe(1);
    await model.dispose();
    await session.dispose();
  });
});
