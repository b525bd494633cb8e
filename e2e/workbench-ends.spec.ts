/**
 * Clean ends: every card reaches a final state on Esc, a stream cut or an error; text of a reply cut
 * off partway is marked as not kept; a request whose stream stops partway is retried with a countdown;
 * the banners say what happened, whether anything ran, and what to do. Real Chromium, the built site,
 * the real SDK against the mock Messages API (its cut_stream, stream_error and rate_limit faults).
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  SCREENSHOT_DIR,
  sendPrompt,
  toolCard,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';

let api: MockApi;
withMockApi((started) => {
  api = started;
});
// Each test opens its own page and storage (the mock API is reset before each), so they run side by side.
test.describe.configure({ mode: 'parallel' });

async function open(page: Page): Promise<void> {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await connect(page, api);
  await allowEverything(page);
}

const LONG = Array.from({ length: 200 }, (_, i) => `line ${i} of a long file`).join('\n');

test('Esc while a tool input streams: the card ends "interrupted" (never ran), the partial text is marked not kept', async ({
  page,
}) => {
  api.script([
    {
      // Slow enough that the input is still streaming when Esc lands, even on a busy machine.
      chunkDelayMs: 150,
      content: [
        { type: 'text', text: 'I will write a long file now, here it comes.' },
        {
          type: 'tool_use',
          id: 'toolu_long',
          name: 'Write',
          input: { file_path: `${ROOT}/long.txt`, content: LONG },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Fine, stopping.' }] },
  ]);
  await open(page);
  await sendPrompt(page, 'Write a long file');
  const card = toolCard(page, 'toolu_long');
  await expect(card).toHaveAttribute('data-status', 'pending');
  await page.keyboard.press('Escape');
  await expect(card).toHaveAttribute('data-status', 'interrupted');
  await expect(card.getByTestId('tool-note')).toContainText('never ran');
  const text = page.getByTestId('assistant-text');
  await expect(text).toHaveAttribute('data-discarded', 'true');
  await expect(text.getByTestId('discarded-note')).toContainText('the model will not see this text');
  await expect(page.getByTestId('interrupted-marker')).toBeVisible();
  await waitIdle(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/esc-while-input-streams.png` });
  // The file was never written, and the next turn's request is valid.
  await expect(page.locator('[data-testid="file-item"][data-path="long.txt"]')).toHaveCount(0);
  await sendPrompt(page, 'Never mind.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Fine, stopping.');
  expect(api.requests.at(-1)?.status).toBe(200);
});

test('a stream cut three times: a countdown before each retry, then a plain error; nothing is left pending', async ({
  page,
}) => {
  const cut = { chunkDelayMs: 30, fault: { kind: 'cut_stream' as const } };
  api.script([cut, cut, cut, { content: [{ type: 'text', text: 'Connected again.' }] }]);
  await open(page);
  await sendPrompt(page, 'Read the README');
  const retry = page.getByTestId('retry-banner');
  await expect(retry).toContainText('The connection broke while the reply streamed');
  await expect(retry).toContainText(/Retrying (in \d s|now) \(retry [12] of 2\)/);
  await expect(retry).toContainText('retry 2 of 2');
  const banner = page.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-error-kind', 'network');
  await expect(banner).toContainText('The connection to the API broke while the reply was streaming');
  await expect(banner.getByTestId('error-ran')).toContainText('Nothing from the unfinished reply ran');
  await expect(banner).not.toContainText('undefined');
  await expect(retry).toHaveCount(0);
  await waitIdle(page);
  // Each attempt's Read card (as far as its stream got) ended; none ran, none is left pending.
  const statuses = await page
    .getByTestId('tool-card')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-status')));
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.length).toBeLessThanOrEqual(3);
  expect(new Set(statuses)).toEqual(new Set(['interrupted']));
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/stream-cut-error.png` });
  expect(api.requests).toHaveLength(3);
  await sendPrompt(page, 'Try again');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Connected again.');
});

test('an SSE overloaded error mid-reply is retried and the reply completes; a 429 counts down its retry-after', async ({
  page,
}) => {
  api.script([
    {
      chunkDelayMs: 30,
      fault: { kind: 'stream_error', afterEvents: 5 },
      content: [{ type: 'text', text: 'A first attempt that the API will cut short.' }],
    },
    { content: [{ type: 'text', text: 'The whole reply.' }] },
  ]);
  await open(page);
  await sendPrompt(page, 'Hello');
  await expect(page.getByTestId('retry-banner')).toContainText('The API became overloaded while answering');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('The whole reply.');
  // The half reply stays on screen, marked; it is not in what the model gets next.
  await expect(page.locator('[data-testid="assistant-text"][data-discarded="true"]')).toHaveCount(1);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await waitIdle(page);

  api.script([
    { fault: { kind: 'rate_limit', retryAfterSec: 2 } },
    { content: [{ type: 'text', text: 'After the wait.' }] },
  ]);
  await sendPrompt(page, 'Again');
  const retry = page.getByTestId('retry-banner');
  await expect(retry).toContainText(
    /The API is rate limiting requests \(429\)\. Retrying in [12] s \(retry 1 of 4\)/,
  );
  await expect(retry).toHaveAttribute('data-seconds-left', '1');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/retry-countdown.png` });
  await expect(page.getByTestId('assistant-text').last()).toHaveText('After the wait.');
  await expect(retry).toHaveCount(0);
  const sent = api.requests.at(-1);
  expect(JSON.stringify(sent?.body.messages)).not.toContain('cut short');
});

test('a prompt the API refuses before any reply: the reason, the prompt marked not sent and back in the box, and the next one is answered', async ({
  page,
}) => {
  api.script([
    {
      fault: {
        kind: 'http',
        status: 400,
        type: 'invalid_request_error',
        message: 'prompt is too long: 250000 tokens > 200000 maximum',
      },
    },
    { content: [{ type: 'text', text: 'Answered without it.' }] },
  ]);
  await open(page);
  const input = page.getByTestId('prompt-input');
  await input.fill('An enormous paste');
  await input.press('Enter');
  await expect(page.getByTestId('error-banner')).toContainText('prompt is too long');
  const refused = page.getByTestId('user-message').last();
  await expect(refused).toHaveAttribute('data-returned', 'true');
  await expect(refused.getByTestId('returned-note')).toContainText('Not sent');
  // The note stands above the bubble, which keeps its width: the short prompt is one line.
  const bubble = refused.locator('.msg-user-text');
  const note = await refused.getByTestId('returned-note').boundingBox();
  const box = await bubble.boundingBox();
  expect(note && box && note.y + note.height <= box.y + 1).toBe(true);
  const lineHeight = await bubble.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 20);
  expect(box?.height ?? 0).toBeLessThan(2 * lineHeight + 16 + 1);
  await expect(input).toHaveValue('An enormous paste');
  await waitIdle(page);
  await input.fill('A short one');
  await input.press('Enter');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Answered without it.');
  // The refused prompt did not go out again.
  const last = api.requests[api.requests.length - 1];
  expect(last.status).toBe(200);
  expect(JSON.stringify(last.body.messages)).not.toContain('An enormous paste');
});

test('a base URL written with /v1 reaches the API; one that answers 404 says to check the base URL', async ({
  page,
}) => {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  const setBase = async (url: string) => {
    await page.getByTestId('settings-button').click();
    await page.getByTestId('api-key-input').fill('test');
    await page.getByTestId('base-url-input').fill(url);
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('settings-dialog')).toBeHidden();
  };
  // The SDK adds /v1/messages itself: a base written the way the API's docs print endpoints still works.
  await setBase(`${api.url}/v1/`);
  api.script([{ content: [{ type: 'text', text: 'Reached.' }] }]);
  await sendPrompt(page, 'hello');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Reached.');
  await waitIdle(page);
  // A base that leads nowhere the API is: the banner names the base URL and offers Settings.
  await setBase(`${api.url}/nothing-here`);
  await sendPrompt(page, 'again');
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('404');
  await expect(banner).toContainText('base URL');
  await expect(banner.getByRole('button', { name: /settings/i })).toBeVisible();
});
