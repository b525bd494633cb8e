/**
 * The transcript follows a run to its end, and only the user stops it: real Chromium, the built site and
 * the real SDK against the mock Messages API. Runs of quick tool turns (cards arriving faster than a
 * frame) are followed across the switch to the virtualized list; a wheel up during a streaming run leaves
 * the view where the user put it, with "↓ Latest" to come back, and following resumes from there.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi, TurnSpec } from './mock-api/server.ts';
import { allowEverything, connect, openApp, sendPrompt, waitIdle, withMockApi } from './support/app.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

/** `count` turns, each a line of text and a Bash call, then a closing reply `done`. */
function toolTurns(from: number, count: number, done: string, chunkDelayMs = 0): TurnSpec[] {
  const turns: TurnSpec[] = [];
  for (let n = from; n < from + count; n++) {
    turns.push({
      chunkDelayMs,
      content: [
        { type: 'text', text: `Step ${n}: checking.` },
        { type: 'tool_use', id: `toolu_b${n}`, name: 'Bash', input: { command: `echo step ${n}` } },
      ],
    });
  }
  turns.push({ content: [{ type: 'text', text: done }] });
  return turns;
}

/** Where the transcript is scrolled, and whether the reply `text` is inside its visible box. */
async function view(page: Page, text: string) {
  return page.getByTestId('transcript').evaluate((el, wanted) => {
    const box = el.getBoundingClientRect();
    const reply = [...el.querySelectorAll('[data-testid="assistant-text"]')].find((t) =>
      t.textContent?.includes(wanted),
    );
    const r = reply?.getBoundingClientRect();
    return {
      virtual: (el as HTMLElement).dataset.virtual,
      fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
      top: el.scrollTop,
      replyOnScreen: r !== undefined && r.bottom > box.top && r.top < box.bottom,
    };
  }, text);
}

test('quick tool turns are followed to the last reply, across the switch to the virtualized list', async ({
  page,
}) => {
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  // 40 turns a prompt (text and a card each): the second prompt passes the virtualization threshold.
  for (let p = 0; p < 3; p++) {
    api.script(toolTurns(p * 40, 40, `Prompt ${p} done.`));
    await sendPrompt(page, `Work ${p}.`);
    await waitIdle(page);
    await expect.poll(() => view(page, `Prompt ${p} done.`)).toMatchObject({ replyOnScreen: true });
    expect((await view(page, `Prompt ${p} done.`)).fromBottom).toBeLessThan(48);
    await expect(page.getByTestId('jump-latest')).toHaveCount(0);
  }
  expect((await view(page, 'Prompt 2 done.')).virtual).toBe('yes');
});

test('a wheel up during a run stops the following; "↓ Latest" brings it back and it follows again', async ({
  page,
}) => {
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  api.script(toolTurns(0, 30, 'Warm-up done.'));
  await sendPrompt(page, 'Warm up.');
  await waitIdle(page);

  // Slow turns: the run is still streaming while the user reads back.
  api.script(toolTurns(100, 12, 'Slow run done.', 40));
  await sendPrompt(page, 'Slow.');
  await expect(page.getByTestId('stop-button')).toBeVisible();
  const transcript = page.getByTestId('transcript');
  await transcript.hover();
  await page.mouse.wheel(0, -1500);
  await expect(page.getByTestId('jump-latest')).toBeVisible();
  const readAt = (await view(page, 'Slow run done.')).top;
  await waitIdle(page);
  // New cards came in below; the view stayed where the user put it.
  const after = await view(page, 'Slow run done.');
  expect(Math.abs(after.top - readAt)).toBeLessThan(4);
  expect(after.replyOnScreen).toBe(false);
  expect(after.fromBottom).toBeGreaterThan(1000);

  await page.getByTestId('jump-latest').click();
  await expect.poll(() => view(page, 'Slow run done.')).toMatchObject({ replyOnScreen: true });
  await expect(page.getByTestId('jump-latest')).toHaveCount(0);
  // Following again: the next run's last reply is on screen without touching anything.
  api.script(toolTurns(200, 20, 'Next run done.'));
  await sendPrompt(page, 'Next.');
  await waitIdle(page);
  await expect.poll(() => view(page, 'Next run done.')).toMatchObject({ replyOnScreen: true });
});
