/**
 * The workbench loses nothing: the page is reloaded at seeded random instants across a scripted
 * session (streamed text, a Write and a slow Bash in one message, a closing reply), and each time what
 * was on screen at that instant is checked against what comes back: the prompts, the finished cards
 * (still done, with their real results in the next request the model gets, not synthetic ones), the
 * text, and the files the finished Writes made. Also: two tabs on one session, and a full storage.
 * Real Chromium, the built site, the real SDK against the mock Messages API.
 *
 * `E2E_SEED=n` replays another set of instants; the seed is in the test's title.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi, ScriptedTurn } from './mock-api/server.ts';
import {
  allowEverything,
  connectRemembering,
  resultText,
  sendPrompt,
  toolCard,
  toolResultFor,
  waitIdle,
  waitSaved,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';
const SEED = Number(process.env.E2E_SEED ?? 20261201);
const INSTANTS = 50;
/** Steps per session: a new session then starts, so no transcript gets long enough to be virtualized. */
const STEPS_PER_SESSION = 10;
/** Instants are drawn from 0 to this many ms after a prompt is sent (the scripted step lasts ~700 ms). */
const SPAN_MS = 900;

let api: MockApi;
withMockApi((started) => {
  api = started;
});

/** mulberry32: a small seeded generator, so a failing instant can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One step: text, a Write and a slow Bash in one message (streamed), then a closing reply. */
function step(i: number): ScriptedTurn[] {
  return [
    {
      chunkDelayMs: 12,
      content: [
        { type: 'text', text: `Step ${i}: writing f${i}.txt, then counting.` },
        {
          type: 'tool_use',
          id: `toolu_w${i}`,
          name: 'Write',
          input: { file_path: `${ROOT}/steps/f${i}.txt`, content: `step ${i}\n` },
        },
        {
          type: 'tool_use',
          id: `toolu_b${i}`,
          name: 'Bash',
          input: { command: `sleep 0.3; echo counted ${i}` },
        },
      ],
    },
    { chunkDelayMs: 12, content: [{ type: 'text', text: `Step ${i} is done: f${i}.txt holds its number.` }] },
  ];
}

interface Shown {
  users: string[];
  texts: Array<{ text: string; discarded: boolean }>;
  cards: Array<{ id: string; status: string }>;
}

/**
 * What the page shows, read in one task; with `reload`, the reload is started from the same task, so
 * nothing the page does after the reading can count as shown.
 */
async function readPage(page: Page, reload: boolean): Promise<Shown> {
  return page.evaluate((andReload) => {
    const all = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
    const shown = {
      users: all('[data-testid="user-message"]').map((e) => e.textContent ?? ''),
      texts: all('[data-testid="assistant-text"]').map((e) => ({
        text: e.querySelector('.md')?.textContent ?? '',
        discarded: e.dataset.discarded === 'true',
      })),
      cards: all('[data-testid="tool-card"]').map((e) => ({
        id: e.dataset.toolUseId ?? '',
        status: e.dataset.status ?? '',
      })),
    };
    if (andReload) setTimeout(() => location.reload(), 0);
    return shown;
  }, reload);
}

/** The project files as saved in IndexedDB (what the next page load starts from), by relative path. */
async function savedFiles(page: Page): Promise<Record<string, string>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, string>>((resolve, reject) => {
        const open = indexedDB.open('tabcode-project');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const out: Record<string, string> = {};
          const req = db.transaction('tree').objectStore('tree').openCursor();
          req.onsuccess = () => {
            const cursor = req.result;
            if (!cursor) {
              db.close();
              resolve(out);
              return;
            }
            const key = String(cursor.key);
            if (key.startsWith('f:'))
              out[key.slice(2)] = new TextDecoder().decode(cursor.value as Uint8Array);
            cursor.continue();
          };
        };
      }),
  );
}

/**
 * Opens the page on the just-bash sandbox (the URL keeps the choice across reloads, and the page does not
 * spend its grace period waiting for a WebContainer that cannot boot here).
 */
async function openApp(page: Page): Promise<void> {
  await page.goto('/?sandbox=just-bash');
  await waitRestored(page);
}

/** After a reload: the sandbox is up, the session is back and the prompt box takes input. */
async function waitRestored(page: Page): Promise<void> {
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('stop-button')).toHaveCount(0);
}

// The tests are independent (each its own page and storage), so the seeded sessions below run side by side.
test.describe.configure({ mode: 'parallel' });

/**
 * The 50 instants, a test per session of STEPS_PER_SESSION steps: the same seeded instants in the same
 * order as one long run, each session on its own page so the sessions can run side by side. A session
 * after the first is opened with New session after a finished turn of an earlier one, as the long run
 * reached it.
 */
for (let session = 0; session < INSTANTS / STEPS_PER_SESSION; session++) {
  const first = session * STEPS_PER_SESSION + 1;
  const last = first + STEPS_PER_SESSION - 1;
  test(`a reload at seeded random instants ${first}-${last} of ${INSTANTS} loses nothing that was shown (seed ${SEED})`, async ({
    page,
  }) => {
    // ~1.5 s per instant on a quiet 2-core machine; far more when the machine is shared.
    test.setTimeout(300_000);
    await openApp(page);
    await connectRemembering(page, api);
    await allowEverything(page);
    const random = seeded(SEED);
    // This session's instants: the generator moved past the ones of the sessions before it.
    for (let skipped = 1; skipped < first; skipped++) random();
    if (first > 1) {
      // An earlier session with a finished turn, then New session: where the long run stood.
      api.script([{ content: [{ type: 'text', text: `Session ${session} came before.` }] }]);
      await sendPrompt(page, `Before step ${first}`);
      await expect(page.getByTestId('assistant-text').last()).toHaveText(`Session ${session} came before.`);
      await waitIdle(page);
      await waitSaved(page);
      await page.getByTestId('new-session').click();
      await expect(page.getByTestId('empty-state')).toBeVisible();
    }
    /** Finished cards shown before the last reload, whose results the next request must carry. */
    let owed: string[] = [];
    let lost = 0;
    /** Prompts a reload cut off before their turn was saved: back in the prompt box. */
    let boxedCount = 0;
    for (let i = first; i <= last; i++) {
      api.script(step(i));
      const firstRequest = api.requests.length;
      await sendPrompt(page, `Step ${i}`);
      const instant = Math.floor(random() * SPAN_MS);
      await page.waitForTimeout(instant);
      // Listening before the reload starts: a quick reload must not load before the wait begins.
      const loaded = page.waitForEvent('load');
      const shown = await readPage(page, true);
      await loaded;
      await waitRestored(page);
      const where = `step ${i}, reload ${instant} ms after sending`;
      const back = await readPage(page, false);

      // The prompt is kept once: in the transcript, or back in the prompt box when the reload came before
      // its turn was saved (a busy machine: the request may not even have gone out).
      const prompt = `Step ${i}`;
      const boxed = (await page.getByTestId('prompt-input').inputValue()) === prompt;
      expect(back.users.includes(prompt) !== boxed, `${where}: "${prompt}" kept once`).toBe(true);

      // The results of the cards finished before the previous reload reached the model as they were
      // (checked with the next request that went out).
      const sent = api.requests[firstRequest];
      if (sent) {
        expect(sent.status, where).toBe(200);
        for (const id of owed) {
          const result = toolResultFor(sent, id);
          expect(result, `${where}: ${id} answered`).toBeDefined();
          expect(resultText(result ?? {}), `${where}: ${id} kept its real result`).not.toMatch(
            /Tool result missing/,
          );
        }
      }
      // Every prompt shown is back, in order.
      expect(back.users.slice(0, shown.users.length), where).toEqual(shown.users);
      // Every finished card is still finished; none is left pending or running.
      const status = new Map(back.cards.map((c) => [c.id, c.status]));
      for (const card of shown.cards) {
        if (card.status === 'done') expect(status.get(card.id), `${where}: ${card.id}`).toBe('done');
        else
          expect(status.get(card.id), `${where}: ${card.id} settled`).toMatch(/^(done|interrupted|error)$/);
      }
      expect(
        back.cards.filter((c) => c.status === 'pending' || c.status === 'running'),
        where,
      ).toEqual([]);
      // Every text shown is back (as streamed so far, kept or marked as not kept).
      for (const text of shown.texts) {
        expect(
          back.texts.some((t) => t.text.startsWith(text.text)),
          `${where}: "${text.text}" back`,
        ).toBe(true);
      }
      // The file of every finished Write is in the workspace and in the saved project, with its content.
      const files = await savedFiles(page);
      for (const card of shown.cards) {
        const n = /^toolu_w(\d+)$/.exec(card.id)?.[1];
        if (!n || card.status !== 'done') continue;
        expect(files[`steps/f${n}.txt`], `${where}: f${n}.txt saved`).toBe(`step ${n}\n`);
        await expect(page.locator(`[data-testid="file-item"][data-path="steps/f${n}.txt"]`)).toHaveCount(1);
      }
      if (shown.users.length === 0 && i % STEPS_PER_SESSION === 1) lost++;
      if (boxed) boxedCount++;
      // Every finished card: those of a step whose request never went out are checked with the next one.
      owed = back.cards.filter((c) => c.status === 'done').map((c) => c.id);
    }
    // Every request the page sent after a reload was valid (the mock rejects unpaired tool results).
    expect(api.requests.filter((r) => r.status !== 200).map((r) => r.error)).toEqual([]);
    test.info().annotations.push({
      type: 'seed',
      description: `${SEED}; first-turn prompts not yet shown: ${lost}; prompts back in the box: ${boxedCount}`,
    });
  });
}

test('typed prompts survive: a reload in the task after Enter keeps the prompt once (in the transcript or back in the box); prompts queued while the session starts are all sent', async ({
  page,
}) => {
  // `holdFrames = true` (set by the test, reset by a reload): animation-frame callbacks never run from
  // then on, as on a page starved of frames (a loaded machine; a hidden tab has none at all).
  await page.addInitScript(() => {
    const w = window as unknown as { holdFrames: boolean };
    const frame = window.requestAnimationFrame.bind(window);
    w.holdFrames = false;
    window.requestAnimationFrame = (callback) => (w.holdFrames ? 0 : frame(callback));
  });
  await openApp(page);
  await connectRemembering(page, api);
  const input = page.getByTestId('prompt-input');
  // The reload comes before the turn is saved (most times: the box), or just after (the transcript).
  for (let n = 1; n <= 3; n++) {
    const prompt = `Cut off ${n}`;
    api.script([{ content: [{ type: 'text', text: `Reply ${n}` }] }]);
    await expect(input).toHaveAttribute('data-ready', 'true');
    await input.fill(prompt);
    await page.evaluate(() =>
      window.addEventListener('keydown', () => setTimeout(() => location.reload(), 0), { once: true }),
    );
    const loaded = page.waitForEvent('load');
    await input.press('Enter');
    await loaded;
    await waitRestored(page);
    const users = await page.getByTestId('user-message').allTextContents();
    const boxed = (await input.inputValue()) === prompt;
    expect(users.includes(prompt) !== boxed, `"${prompt}" kept once (${users.join(' | ')})`).toBe(true);
    await input.fill('');
  }

  // A reply quick enough to end its turn before any of it is written (the page's frames held back, as on
  // a loaded machine: the session is written once per frame), then a reload: still kept once.
  api.script([{ content: [{ type: 'text', text: 'A quick reply.' }] }]);
  const quick = 'Answered before saved';
  const before = api.requests.length;
  await input.fill(quick);
  await page.evaluate(() => {
    (window as unknown as { holdFrames: boolean }).holdFrames = true;
  });
  await input.press('Enter');
  await expect.poll(() => api.requests.length).toBe(before + 1);
  // The turn ended (no frame came, so nothing of it was written then).
  await expect(page.getByTestId('stop-button')).toHaveCount(0);
  await page.reload();
  await waitRestored(page);
  const users = await page.getByTestId('user-message').allTextContents();
  const boxed = (await input.inputValue()) === quick;
  expect(users.includes(quick) !== boxed, `"${quick}" kept once (${users.join(' | ')})`).toBe(true);
  await input.fill('');

  // Two prompts typed before the session is up (its sandbox worker held back): both queued, both sent.
  // The session ends cut off (the reload comes mid-reply), and frames are held back from the reload on:
  // the first queued turn ends before any frame wrote it, and what the page goes by then must be that
  // turn's end, not the cut-off one shown before it.
  api.script([
    { chunkDelayMs: 300, content: [{ type: 'text', text: 'A slow reply, cut off by the reload.' }] },
  ]);
  const asked = api.requests.length;
  await sendPrompt(page, 'Cut off mid-reply');
  await expect(page.getByTestId('user-message').last()).toHaveText('Cut off mid-reply');
  await expect.poll(() => api.requests.length).toBe(asked + 1);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/sandbox\.worker-[^/]*\.js/, async (route) => {
    await held;
    await route.continue();
  });
  api.script([
    { content: [{ type: 'text', text: 'First queued reply.' }] },
    { content: [{ type: 'text', text: 'Second queued reply.' }] },
  ]);
  // A damaged entry of unsent text: what is usable of it comes back, the rest is ignored.
  await page.evaluate(() =>
    sessionStorage.setItem('tabcode.unsent-prompts', '{"texts":[7,"Salvaged draft",null],"sent":{"text":5}}'),
  );
  await page.reload();
  await expect(input).toHaveAttribute('data-ready', 'false');
  await expect(input).toHaveValue('Salvaged draft');
  await page.evaluate(() => {
    (window as unknown as { holdFrames: boolean }).holdFrames = true;
  });
  for (const text of ['Queued first', 'Queued second']) {
    await input.fill(text);
    await input.press('Enter');
  }
  await expect(page.getByTestId('queued-prompt')).toHaveCount(2);
  release();
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Second queued reply.');
  await expect(page.getByTestId('user-message').last()).toHaveText('Queued second');
  await expect(page.getByTestId('queued-prompt')).toHaveCount(0);
  await waitIdle(page);
});

/** Reloads from the page's own task (as the sweep does) and waits until the session is back. */
async function reloadNow(page: Page): Promise<Shown> {
  const loaded = page.waitForEvent('load');
  const shown = await readPage(page, true);
  await loaded;
  await waitRestored(page);
  return shown;
}

test('a reload at the instants the sweep does not reach: a permission prompt, a /compact, a session switch', async ({
  page,
}) => {
  const ask = 'toolu_ask';
  api.script([
    {
      content: [
        { type: 'text', text: 'Asking to write.' },
        {
          type: 'tool_use',
          id: ask,
          name: 'Write',
          input: { file_path: `${ROOT}/asked.txt`, content: 'no\n' },
        },
      ],
    },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await expect(page.getByTestId('mode-switch')).toHaveValue('default');

  // 1. While a Write waits at its permission prompt: the prompt and text are back, the call is settled
  // (it never ran: nothing written), and the next request answers it.
  await sendPrompt(page, 'Write if allowed');
  await expect(toolCard(page, ask).getByTestId('permission-request')).toBeVisible();
  let shown = await reloadNow(page);
  expect(shown.users).toEqual(['Write if allowed']);
  await expect(page.getByTestId('user-message')).toHaveText(['Write if allowed']);
  await expect(page.getByTestId('assistant-text').first()).toContainText('Asking to write.');
  await expect(toolCard(page, ask)).toHaveAttribute('data-status', /^(interrupted|error)$/);
  await expect(page.getByTestId('permission-request')).toHaveCount(0);
  expect((await savedFiles(page))['asked.txt']).toBeUndefined();

  // 2. While /compact streams its summary: the conversation is back as it was and goes on validly.
  api.script([
    { content: [{ type: 'text', text: 'Not writing, then.' }] },
    {
      chunkDelayMs: 40,
      content: [{ type: 'text', text: `<summary>${'A slow summary. '.repeat(60)}</summary>` }],
    },
  ]);
  await sendPrompt(page, 'Leave it');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Not writing, then.');
  await waitIdle(page);
  await waitSaved(page);
  const answered = api.requests[api.requests.length - 1];
  expect(answered.status).toBe(200);
  expect(toolResultFor(answered, ask)).toBeDefined();
  await sendPrompt(page, '/compact');
  await expect(page.getByTestId('compaction-divider').last()).toHaveAttribute('data-status', 'running');
  shown = await reloadNow(page);
  await expect(page.getByTestId('user-message')).toHaveText(shown.users);
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Not writing, then.');
  // The cut summary is not left spinning.
  await expect(page.locator('[data-testid="compaction-divider"][data-status="running"]')).toHaveCount(0);

  // 3. Right after switching to another session: whichever is open after the reload is whole, and so is
  // the other one.
  api.script([{ content: [{ type: 'text', text: 'The other session.' }] }]);
  await page.getByTestId('new-session').click();
  await sendPrompt(page, 'Other session');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('The other session.');
  await waitIdle(page);
  await waitSaved(page);
  const open = (title: string) =>
    page.getByTestId('session-item').filter({ hasText: title }).getByTestId('session-open').click();
  await open('Write if allowed');
  shown = await reloadNow(page);
  const whole = [['Write if allowed', 'Leave it'], ['Other session']];
  const back = await page.getByTestId('user-message').allTextContents();
  expect(whole, 'the session open after the reload is whole').toContainEqual(back);
  expect(whole.concat([[]]), 'what was shown was a whole session').toContainEqual(shown.users);
  const other = back[0] === 'Other session' ? whole[0] : whole[1];
  await open(other[0]);
  await expect(page.getByTestId('user-message')).toHaveText(other);
  expect(api.requests.filter((r) => r.status !== 200).map((r) => r.error)).toEqual([]);
});

test('two tabs on one session: the second says so, saves nothing, and opens it once the first closes', async ({
  page,
  context,
}) => {
  api.script([{ content: [{ type: 'text', text: 'First tab reply.' }] }]);
  await openApp(page);
  await connectRemembering(page, api);
  await sendPrompt(page, 'From the first tab');
  await expect(page.getByTestId('assistant-text')).toHaveText('First tab reply.');
  await waitIdle(page);
  await waitSaved(page);

  const second = await context.newPage();
  // A prompt typed in the second tab while its sandbox starts is queued; the session then opens read-only
  // there, so it is not sent (the turn would run on a session this tab cannot save): back in the box.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await second.route(/sandbox\.worker-[^/]*\.js/, async (route) => {
    await held;
    await route.continue();
  });
  await second.goto('/?sandbox=just-bash');
  const typed = 'Typed while the second tab started';
  await second.getByTestId('prompt-input').fill(typed);
  await second.getByTestId('prompt-input').press('Enter');
  await expect(second.getByTestId('queued-prompt')).toHaveCount(1);
  const asked = api.requests.length;
  release();
  await expect(second.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await expect(second.getByTestId('readonly-banner')).toContainText('This session is open in another tab.');
  await expect(second.getByTestId('prompt-input')).toHaveValue(typed);
  await expect(second.getByTestId('queued-prompt')).toHaveCount(0);
  expect(api.requests.length).toBe(asked);
  await expect(second.getByTestId('user-message')).toHaveText('From the first tab');
  await expect(second.getByTestId('save-status')).toHaveAttribute('data-state', 'readonly');
  await expect(second.getByTestId('prompt-input')).toBeDisabled();

  // The first tab goes on (and writes a file) and saves; the second never wrote over it.
  await allowEverything(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_late',
          name: 'Write',
          input: { file_path: `${ROOT}/late.txt`, content: 'late\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Still the first tab.' }] },
  ]);
  await sendPrompt(page, 'Again from the first');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Still the first tab.');
  await waitIdle(page);
  await waitSaved(page);

  // The first tab closes: the second opens the session for real, as the first saved it.
  await page.close();
  await expect(second.getByTestId('readonly-banner')).toHaveCount(0);
  await expect(second.getByTestId('user-message')).toHaveText(['From the first tab', 'Again from the first']);
  // Its workspace took in the file the first tab's turn wrote after this tab loaded (it lacked it before).
  await expect(second.locator('[data-testid="file-item"][data-path="late.txt"]')).toHaveCount(1);
  await expect(second.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  api.script([{ content: [{ type: 'text', text: 'Now the second tab.' }] }]);
  await sendPrompt(second, 'From the second tab');
  await expect(second.getByTestId('assistant-text').last()).toHaveText('Now the second tab.');
  await waitIdle(second);
  await waitSaved(second);
  await second.reload();
  await expect(second.getByTestId('user-message')).toHaveCount(3);
});

test('a full storage: a clear banner, the session goes on from memory, and nothing is dropped once space is back', async ({
  page,
}) => {
  // The sessions store refuses writes as a full disk does while window.__full is set.
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      if (this.name === 'records' && (window as { __full?: boolean }).__full)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  api.script([
    {
      content: [
        { type: 'text', text: 'Writing while the disk is full.' },
        {
          type: 'tool_use',
          id: 'toolu_full',
          name: 'Write',
          input: { file_path: `${ROOT}/full.txt`, content: 'x\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Done, in memory.' }] },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await allowEverything(page);
  await page.evaluate(() => {
    (window as { __full?: boolean }).__full = true;
  });
  await sendPrompt(page, 'Write on a full disk');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Done, in memory.');
  await expect(toolCard(page, 'toolu_full')).toHaveAttribute('data-status', 'done');
  const banner = page.getByTestId('save-error-banner');
  await expect(banner).toContainText("The browser's storage is full, so this session is not saved");
  await expect(banner).toContainText('Nothing is lost yet');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error');
  // Still usable: another turn runs.
  api.push({ content: [{ type: 'text', text: 'Second reply, still in memory.' }] });
  await sendPrompt(page, 'And another');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Second reply, still in memory.');
  await waitIdle(page);
  // The export keeps a copy meanwhile.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('save-error-export').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tabcode-write-on-a-full-disk\.json$/);
  // Space is back: the retry writes everything, and a reload shows both turns.
  await page.evaluate(() => {
    (window as { __full?: boolean }).__full = false;
  });
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 10_000 });
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('user-message')).toHaveText(['Write on a full disk', 'And another']);
  await expect(toolCard(page, 'toolu_full')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Second reply, still in memory.');
});

test('a browser that refuses IndexedDB: the page works from memory and says the session is not saved', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  // As storage blocked by policy or a private mode: every database open throws.
  await page.addInitScript(() => {
    IDBFactory.prototype.open = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError');
    };
  });
  api.script([{ content: [{ type: 'text', text: 'Working from memory.' }] }]);
  await openApp(page);
  // Settings save and close (the remembered key cannot be stored: nothing stops the dialog).
  await connectRemembering(page, api);
  await sendPrompt(page, 'No storage here');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Working from memory.');
  await expect(page.getByTestId('save-error-banner')).toContainText(
    'This session could not be saved to browser storage (The user denied permission',
  );
  expect(errors).toEqual([]);
});

test('a hidden tab (no animation frames) writes as its turn goes: a crash mid-turn keeps the finished call', async ({
  page,
}) => {
  // A tab in the background: `hide()` makes the document hidden, and animation frames stop, as they do.
  // A tab the browser loses runs no pagehide, unload or beforeunload: those listeners are dropped.
  await page.addInitScript(() => {
    for (const target of [window, document]) {
      const add = target.addEventListener.bind(target);
      target.addEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, unknown?]) => {
        if (type === 'pagehide' || type === 'unload' || type === 'beforeunload') return;
        add(type, ...(rest as [EventListenerOrEventListenerObject]));
      }) as typeof target.addEventListener;
    }
    let hidden = false;
    const frame = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => (hidden ? 0 : frame(callback));
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { get: () => hidden });
    (window as unknown as { hide: () => void }).hide = () => {
      hidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
  await openApp(page);
  await connectRemembering(page, api);
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_hidden', name: 'Bash', input: { command: 'echo done while hidden' } },
      ],
    },
    // The turn goes on after the call: a reply that takes a minute.
    { chunkDelayMs: 60_000, content: [{ type: 'text', text: 'Still working on it, slowly.' }] },
  ]);
  await page.evaluate(() => (window as unknown as { hide: () => void }).hide());
  await sendPrompt(page, 'Work while I look away');
  // What is shown is what was written, so the finished call shows once it is in IndexedDB.
  await expect(toolCard(page, 'toolu_hidden')).toHaveAttribute('data-status', 'done');
  // The browser loses the tab (a crash, a discard): no last save. The page's pagehide and unload
  // listeners were never added (see the init script), so the reload below is such a loss.
  await page.reload();
  await waitRestored(page);
  await expect(page.getByTestId('user-message').last()).toHaveText('Work while I look away');
  await expect(toolCard(page, 'toolu_hidden')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_hidden')).toContainText('done while hidden');
});
