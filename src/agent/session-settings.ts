/**
 * The session's settings and models: the defaults, the key a request carries, the models the API lists
 * and each model's context window (the Models API's figure, else the table's).
 */
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL } from '../core/constants.ts';
import { createAnthropicClient, DEFAULT_BASE_URL } from '../core/model/anthropic.ts';
import { type ContextWindow, contextWindowOf } from '../core/model/context-window.ts';
import type { AgentSettings, ModelSummary } from './types.ts';

/** The key the SDK sends when the dev proxy adds the real one (it is replaced server-side). */
export const PROXY_PLACEHOLDER_KEY = 'added-by-dev-proxy';

/** Most models `listModels` returns (the API pages beyond this are not read). */
const MAX_MODELS_LISTED = 200;

/** How long the Models API may take to say a model's window before the table answers. */
const WINDOW_LOOKUP_TIMEOUT_MS = 5_000;

export function defaultSettings(): AgentSettings {
  const proxy = typeof __TABCODE_DEV_PROXY__ !== 'undefined' && __TABCODE_DEV_PROXY__;
  return {
    apiKey: '',
    baseURL: proxy && typeof location !== 'undefined' ? `${location.origin}/api/anthropic` : DEFAULT_BASE_URL,
    model: DEFAULT_MODEL,
    maxTokens: DEFAULT_MAX_TOKENS,
    permissionMode: 'default',
  };
}

/** True when requests go through the dev server's proxy, which adds the key. */
export function usesDevProxy(settings: AgentSettings): boolean {
  return /\/api\/anthropic\/?$/.test(settings.baseURL);
}

/**
 * The key requests carry: the user's, or the placeholder a proxy replaces (`keyless`: the page answers
 * or a host's proxy adds it). Empty when there is neither. Never throws.
 */
export function apiKeyFor(settings: AgentSettings, keyless: boolean | undefined): string {
  return settings.apiKey || (keyless || usesDevProxy(settings) ? PROXY_PLACEHOLDER_KEY : '');
}

/** GET /v1/models with these settings, at most MAX_MODELS_LISTED. Rejects with the API's error. */
export async function listModels(
  settings: AgentSettings,
  keyless: boolean | undefined,
  fetchImpl: typeof fetch | undefined,
): Promise<ModelSummary[]> {
  const client = createAnthropicClient({
    apiKey: apiKeyFor(settings, keyless),
    baseURL: settings.baseURL,
    fetch: fetchImpl,
    maxRetries: 0,
  });
  const models: ModelSummary[] = [];
  for await (const m of client.models.list({ limit: 100 })) {
    models.push({ id: m.id, displayName: m.display_name });
    if (models.length >= MAX_MODELS_LISTED) break;
  }
  return models;
}

/**
 * A per-session lookup of context windows: the Models API is asked once per (base URL, model), and
 * the table answers without a key or when the API does not say. The lookup never rejects.
 */
export function createWindowLookup(
  getSettings: () => AgentSettings,
  keyless: boolean | undefined,
  fetchImpl: typeof fetch | undefined,
): (model: string) => Promise<ContextWindow> {
  const reported = new Map<string, Promise<number | null>>();
  return async (model) => {
    const settings = getSettings();
    const apiKey = apiKeyFor(settings, keyless);
    // Without a key the API cannot be asked yet: the table answers until there is one.
    if (!apiKey) return contextWindowOf(model);
    const key = `${settings.baseURL}\n${model}`;
    if (!reported.has(key)) {
      const client = createAnthropicClient({
        apiKey,
        baseURL: settings.baseURL,
        fetch: fetchImpl,
        maxRetries: 0,
        timeoutMs: WINDOW_LOOKUP_TIMEOUT_MS,
      });
      reported.set(
        key,
        client.models.retrieve(model).then(
          (m) => m.max_input_tokens ?? null,
          () => null,
        ),
      );
    }
    return contextWindowOf(model, await reported.get(key));
  };
}
