/**
 * The agent session module (SDK, tools, sandbox, MCP: most of the page's code), loaded on demand so
 * the page shell paints before it arrives. The page still reaches the agent only through AgentSession.
 */
import type { AgentSettings } from '../agent/types.ts';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL } from '../core/constants.ts';

type AgentModule = typeof import('../agent/session.ts');

let loaded: AgentModule | undefined;
let loading: Promise<AgentModule> | undefined;

/** Starts loading the module (once) and resolves with it. */
export function loadAgentModule(): Promise<AgentModule> {
  loading ??= import('../agent/session.ts').then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** Settings shown before the module has loaded (replaced by its defaults and the saved settings). */
export const PLACEHOLDER_SETTINGS: AgentSettings = {
  apiKey: '',
  baseURL: '',
  model: DEFAULT_MODEL,
  maxTokens: DEFAULT_MAX_TOKENS,
  permissionMode: 'default',
};

/** Whether requests go through the dev server's proxy (which adds the key); false until the module loads. */
export function usesDevProxy(settings: AgentSettings): boolean {
  return loaded?.usesDevProxy(settings) ?? false;
}
