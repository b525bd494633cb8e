/**
 * Issue 17, the terminal in real Chromium: output that carries terminal queries (device attributes
 * `ESC[c`, `ESC[>c`, a cursor report `ESC[6n`, the background colour `OSC 11 ; ?`) must not type
 * xterm's replies into the user's line editor. The file is printed with `cat`, then the user types a
 * command: it runs as typed, and no reply shows on screen or in what ran.
 */
import { expect, test } from '@playwright/test';
import { openApp, terminalText } from './support/app.ts';

test('queries in printed output type nothing into the line editor', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-terminal').click();
  const xterm = page.getByTestId('terminal').locator('.xterm');
  await xterm.click();
  // The hostile file: written with printf's octal escapes, then printed raw.
  await page.keyboard.type(
    "printf 'before \\033[c\\033[>c\\033[6n\\033]11;?\\007\\033]10;?\\033\\\\ after\\n' > hostile.txt && cat hostile.txt",
  );
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/before\s+after/);
  // Whatever xterm would have answered lands in the editor before the next key: the line must be clean.
  await page.keyboard.type('echo typed-by-me');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 20_000 }).toMatch(/^typed-by-me$/m);
  const screen = await terminalText(page);
  expect(screen).toMatch(/\$ echo typed-by-me$/m);
  expect(screen).not.toMatch(/\d+;\d+R|\?1;2c|>0;\d+;0c|rgb:/);
});
