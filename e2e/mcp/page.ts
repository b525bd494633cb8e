/**
 * Page helpers for the MCP end-to-end specs: servers saved the way the settings save them, the MCP
 * panel, permission prompts of MCP calls, and a dump of every IndexedDB database of the page (to check
 * where tokens end up).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { openApp, openSideTab, toolCard } from '../support/app.ts';

/** Where the page's McpManager keeps the user's servers (src/mcp/storage.ts). */
const DB = { name: 'tabcode-mcp', store: 'servers', key: 'servers' };

/** Saves MCP server configs the way the settings do (IndexedDB), then reloads so the session reads them. */
export async function saveServersAndReload(
  page: Page,
  servers: Array<{ name: string; url: string }>,
): Promise<void> {
  await page.evaluate(
    async ({ db, configs }) => {
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(db.name);
        open.onupgradeneeded = () => open.result.createObjectStore(db.store);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(db.store, 'readwrite');
          tx.objectStore(db.store).put(configs, db.key);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      });
    },
    { db: DB, configs: servers.map((s) => ({ type: 'http', source: 'settings', ...s })) },
  );
  await openApp(page);
}

/** Opens the MCP panel and returns the row of `name`. */
export async function mcpRow(page: Page, name: string): Promise<Locator> {
  const tab = page.getByTestId('tab-mcp');
  if ((await tab.getAttribute('aria-selected')) !== 'true') await openSideTab(page, 'mcp');
  return page.locator(`[data-testid="mcp-server"][data-name="${name}"]`);
}

/** Allows an MCP call once if the permission engine asks. Resolves when the card settled or was answered. */
export async function allowIfAsked(page: Page, toolUseId: string): Promise<void> {
  const card = toolCard(page, toolUseId);
  const allow = card.getByTestId('permission-allow-once');
  const settled = page.locator(
    `[data-testid="tool-card"][data-tool-use-id="${toolUseId}"]:is([data-status="done"],[data-status="error"])`,
  );
  await expect(allow.or(settled)).toBeVisible({ timeout: 30_000 });
  if (await allow.isVisible()) await allow.click();
}

/** Every value of every object store of every IndexedDB database of the page, as JSON, by database. */
export async function dumpIndexedDb(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const out: Record<string, string> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name as string);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const values: unknown[] = [];
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store, 'readonly').objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        values.push(...all);
      }
      db.close();
      out[info.name] = JSON.stringify(values);
    }
    return out;
  });
}
