/**
 * The sandbox contract against the real WebContainer (see playwright.config.ts here). Skips, saying
 * why, when the WebContainer cannot boot (no network, StackBlitz unreachable).
 */
import { expect, type Page, test } from '@playwright/test';
import type { ContractResult } from './harness.tsx';

async function open(page: Page): Promise<void> {
  await page.goto('/e2e/webcontainer/harness.html?backend=webcontainer&contract=1');
  const status = page.getByTestId('harness-status');
  await expect(status).toHaveAttribute('data-state', /ready|skipped/, { timeout: 120_000 });
  if ((await status.getAttribute('data-state')) === 'skipped') {
    const reason = (await status.textContent()) ?? 'unknown';
    const message = `SKIPPED: the real WebContainer could not boot here (${reason.replace(/^skipped: /, '')}). The contract ran only against just-bash and the typed fake (npm run test:unit, e2e/sandbox-terminal.spec.ts).`;
    console.log(message);
    // Reason: without StackBlitz's servers no WebContainer boots; issue 3 asks for a clear skip here.
    test.skip(true, message);
  }
}

test('the sandbox contract passes on the real WebContainer', async ({ page }) => {
  await open(page);
  const results = await page.evaluate(() => window.harness.runContract());
  for (const r of results)
    console.log(
      `${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${Math.round(r.ms)} ms)${r.error ? `: ${r.error}` : ''}`,
    );
  expect(results.filter((r: ContractResult) => !r.ok)).toEqual([]);
});

test('Node.js runs, and a server started in the background shows up as a preview', async ({ page }) => {
  await open(page);
  const out = await page.evaluate(async () => {
    const sb = window.harness.sandbox;
    if (!sb) throw new Error('no sandbox');
    const node = await sb.exec('node -e "console.log(6 * 7)"', { timeoutMs: 60_000 });
    await sb.writeFile(
      'server.js',
      "require('http').createServer((q, s) => s.end('hello from the preview')).listen(3111, () => console.log('listening'));\n",
    );
    const bg = await sb.startBackground('node server.js');
    const deadline = Date.now() + 60_000;
    while (!sb.previews().some((p) => p.port === 3111) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const previews = sb.previews();
    const read = sb.readBackground(bg.id);
    await sb.killBackground(bg.id);
    return { node, previews, output: read.output };
  });
  expect(out.node.stdout.trim()).toBe('42');
  expect(out.previews.map((p) => p.port)).toContain(3111);
  expect(out.output).toContain('listening');
});
