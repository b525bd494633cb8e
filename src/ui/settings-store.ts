/**
 * The page's saved settings and preferences (IndexedDB, its own database). The API key is written only
 * when the user ticks "remember"; unticking deletes it. Nothing here ever goes to a URL or a log.
 */

import { createKeyValueStore, type KeyValueStore } from '../agent/sessions-store.ts';
import type { AgentSettings } from '../agent/types.ts';
import { PERMISSION_MODES } from '../core/permissions/types.ts';

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export type SideTab = 'files' | 'terminal' | 'preview' | 'todos' | 'usage' | 'mcp' | 'rules';

/** Page preferences (no secrets). */
export interface Prefs {
  theme: Theme;
  /** Keep the API key in IndexedDB across reloads. */
  rememberKey: boolean;
  sessionsOpen: boolean;
  sideOpen: boolean;
  sideTab: SideTab;
  /** Widths in px of the sessions list and the side panel. */
  sessionsWidth: number;
  sideWidth: number;
}

export const DEFAULT_PREFS: Prefs = {
  theme: 'system',
  rememberKey: false,
  sessionsOpen: true,
  sideOpen: true,
  sideTab: 'files',
  sessionsWidth: 220,
  sideWidth: 380,
};

export interface SavedSettings {
  settings: Partial<AgentSettings>;
  prefs: Prefs;
  currentSessionId?: string;
}

export interface SettingsStore {
  /** Everything saved; defaults for what is missing or malformed. Never rejects. */
  load(): Promise<SavedSettings>;
  /** Saves the settings; the key only when `rememberKey`, else the saved key is deleted. */
  saveSettings(settings: AgentSettings, rememberKey: boolean): Promise<void>;
  savePrefs(prefs: Prefs): Promise<void>;
  saveCurrentSession(id: string): Promise<void>;
}

const K_SETTINGS = 'settings';
const K_KEY = 'apiKey';
const K_PREFS = 'prefs';
const K_CURRENT = 'currentSession';

export function createSettingsStore(kv: KeyValueStore = createKeyValueStore()): SettingsStore {
  return {
    async load() {
      try {
        const [settings, key, prefs, current] = await Promise.all([
          kv.get<Partial<AgentSettings>>(K_SETTINGS),
          kv.get<string>(K_KEY),
          kv.get<Partial<Prefs>>(K_PREFS),
          kv.get<string>(K_CURRENT),
        ]);
        const merged = { ...DEFAULT_PREFS, ...(isObject(prefs) ? prefs : {}) };
        return {
          settings: {
            ...sanitizeSettings(settings),
            ...(merged.rememberKey && typeof key === 'string' ? { apiKey: key } : {}),
          },
          prefs: { ...merged, theme: THEMES.includes(merged.theme) ? merged.theme : 'system' },
          currentSessionId: typeof current === 'string' ? current : undefined,
        };
      } catch {
        return { settings: {}, prefs: DEFAULT_PREFS };
      }
    },
    async saveSettings(settings, rememberKey) {
      const { apiKey, ...rest } = settings;
      await kv.set(K_SETTINGS, rest);
      if (rememberKey && apiKey) await kv.set(K_KEY, apiKey);
      else await kv.del(K_KEY);
    },
    savePrefs: (prefs) => kv.set(K_PREFS, prefs),
    saveCurrentSession: (id) => kv.set(K_CURRENT, id),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Keeps only well-typed fields of saved settings (never the key: it has its own entry). */
function sanitizeSettings(v: unknown): Partial<AgentSettings> {
  if (!isObject(v)) return {};
  const out: Partial<AgentSettings> = {};
  if (typeof v.baseURL === 'string' && v.baseURL) out.baseURL = v.baseURL;
  if (typeof v.model === 'string' && v.model) out.model = v.model;
  if (typeof v.maxTokens === 'number' && Number.isInteger(v.maxTokens) && v.maxTokens > 0)
    out.maxTokens = v.maxTokens;
  if (
    typeof v.permissionMode === 'string' &&
    (PERMISSION_MODES as readonly string[]).includes(v.permissionMode)
  )
    out.permissionMode = v.permissionMode as AgentSettings['permissionMode'];
  if (typeof v.thinkingBudget === 'number' && Number.isInteger(v.thinkingBudget) && v.thinkingBudget >= 0)
    out.thinkingBudget = v.thinkingBudget;
  if (typeof v.autoCompact === 'boolean') out.autoCompact = v.autoCompact;
  if (typeof v.toolSearchEncoder === 'boolean') out.toolSearchEncoder = v.toolSearchEncoder;
  if (typeof v.autoCompactRatio === 'number' && v.autoCompactRatio > 0 && v.autoCompactRatio < 1)
    out.autoCompactRatio = v.autoCompactRatio;
  return out;
}
