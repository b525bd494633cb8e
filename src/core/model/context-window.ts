/**
 * A model's context window: what the Models API says (`max_input_tokens`), else the table in
 * constants.ts (longest matching id prefix), else DEFAULT_CONTEXT_WINDOW. Pure.
 */
import { DEFAULT_CONTEXT_WINDOW, MODEL_CONTEXT_WINDOWS } from '../constants.ts';

/** Where a window figure came from, for the Usage panel. */
export type ContextWindowSource = 'models-api' | 'table' | 'default';

export interface ContextWindow {
  tokens: number;
  source: ContextWindowSource;
}

/** The window of `model`; `reported` is the Models API's `max_input_tokens` for it, when known. */
export function contextWindowOf(model: string, reported?: number | null): ContextWindow {
  if (typeof reported === 'number' && Number.isFinite(reported) && reported > 0) {
    return { tokens: Math.floor(reported), source: 'models-api' };
  }
  const id = model.toLowerCase();
  let best = '';
  for (const prefix of Object.keys(MODEL_CONTEXT_WINDOWS)) {
    if (id.startsWith(prefix) && prefix.length > best.length) best = prefix;
  }
  return best
    ? { tokens: MODEL_CONTEXT_WINDOWS[best], source: 'table' }
    : { tokens: DEFAULT_CONTEXT_WINDOW, source: 'default' };
}
