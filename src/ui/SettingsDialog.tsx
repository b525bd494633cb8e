/**
 * Settings: API key (masked; in memory only unless "remember" is ticked), base URL (API or proxy),
 * model (listed by the API, a built-in list offline), max tokens, permission mode and theme.
 *
 * A key goes only where the user sent it: nothing is requested with what is typed here before Save
 * (the model list is of the saved key and base URL), a base URL an embedding page chose must be
 * confirmed before a key typed here is saved for it, and the key field is emptied when the dialog closes,
 * so its value is not left in the DOM.
 */
import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AgentSettings, ModelSummary } from '../agent/types.ts';
import {
  DEFAULT_AUTO_COMPACT_RATIO,
  DEFAULT_MODEL,
  DEFAULT_THINKING_BUDGET_TOKENS,
  MIN_THINKING_BUDGET_TOKENS,
} from '../core/constants.ts';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';
import { keyNeedsConfirmation, originOf, savedListDiffers } from './settings-guard.ts';
import { THEMES, type Theme } from './settings-store.ts';

/** Shown when the API's model list cannot be had (offline, no key yet). */
export const FALLBACK_MODELS: readonly ModelSummary[] = [
  { id: DEFAULT_MODEL, displayName: DEFAULT_MODEL },
  { id: 'claude-opus-4-6', displayName: 'Claude Opus 4.6' },
  { id: 'claude-sonnet-4-6', displayName: 'Claude Sonnet 4.6' },
  { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5' },
  { id: 'claude-sonnet-4-5', displayName: 'Claude Sonnet 4.5' },
];

export const MODE_LABEL: Record<PermissionMode, string> = {
  default: 'Ask before changes',
  acceptEdits: 'Accept file edits',
  plan: 'Plan only (read-only)',
  bypassPermissions: 'Allow everything',
  dontAsk: "Don't ask (deny the rest)",
};

/** The same modes in a word or two, for the prompt box on a phone (its row also holds Queue, Stop, Send). */
export const MODE_SHORT_LABEL: Record<PermissionMode, string> = {
  default: 'Ask first',
  acceptEdits: 'Accept edits',
  plan: 'Plan only',
  bypassPermissions: 'Allow all',
  dontAsk: "Don't ask",
};

const THEME_LABEL: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };
const MODELS_DEBOUNCE_MS = 400;

export interface SettingsSave {
  settings: Partial<AgentSettings>;
  theme: Theme;
  rememberKey: boolean;
}

interface SettingsDialogProps {
  open: boolean;
  settings: AgentSettings;
  theme: Theme;
  rememberKey: boolean;
  onSave: (save: SettingsSave) => void;
  onClose: () => void;
  listModels: (overrides: Partial<AgentSettings>) => Promise<ModelSummary[]>;
  /** The base URL an embedding page set (not the user): a key typed here is sent there only once confirmed. */
  hostBaseURL?: string;
}

type ModelList =
  | { source: 'api'; models: ModelSummary[] }
  | { source: 'fallback'; reason: string }
  | { source: 'loading' };

export function SettingsDialog({
  open,
  settings,
  theme,
  rememberKey,
  onSave,
  onClose,
  listModels,
  hostBaseURL,
}: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState(() => toDraft(settings, theme, rememberKey));
  const [showKey, setShowKey] = useState(false);
  /** The user confirmed that a key may go to the embedding page's base URL (asked again at every open). */
  const [hostConfirmed, setHostConfirmed] = useState(false);
  const [models, setModels] = useState<ModelList>({
    source: 'fallback',
    reason: 'Add a key to list the models.',
  });

  // Each edit applies to the draft as it is then, never to the one a handler closed over: an input that
  // lands in the instant the dialog opens (before the fresh draft renders) would otherwise put back the
  // closed dialog's draft, whose key was dropped, and Save would clear the saved key.
  const edit = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  // A layout effect: the fresh draft is rendered before the dialog can take any input.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setDraft(toDraft(settings, theme, rememberKey));
      setShowKey(false);
      setHostConfirmed(false);
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
    // Closed: what was typed is dropped from memory too (the saved settings keep the saved key).
    if (!open) setDraft((d) => (d.apiKey ? { ...d, apiKey: '' } : d));
  }, [open, settings, theme, rememberKey]);

  // The model list is of the saved key and base URL: nothing typed here is sent before Save.
  const savedKey = settings.apiKey.trim();
  const savedBaseURL = settings.baseURL.trim();
  useEffect(() => {
    if (!open) return;
    if (!savedKey && !/\/api\/anthropic\/?$/.test(savedBaseURL)) {
      setModels({ source: 'fallback', reason: 'Save a key to list the models your key can use.' });
      return;
    }
    let cancelled = false;
    setModels({ source: 'loading' });
    const t = setTimeout(() => {
      listModels({ apiKey: savedKey, baseURL: savedBaseURL.replace(/\/+$/, '') }).then(
        (list) => {
          if (cancelled) return;
          setModels(
            list.length
              ? { source: 'api', models: list }
              : { source: 'fallback', reason: 'The API listed no models.' },
          );
        },
        (err: unknown) => {
          if (!cancelled) setModels({ source: 'fallback', reason: modelsError(err) });
        },
      );
    }, MODELS_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [open, savedKey, savedBaseURL, listModels]);

  const maxTokens = Number(draft.maxTokens);
  const maxTokensValid = Number.isInteger(maxTokens) && maxTokens > 0 && maxTokens <= 1_000_000;
  const baseURLValid = /^(https?:\/\/|\/)/.test(draft.baseURL.trim());
  const fetchProxyValid = draft.fetchProxy.trim() === '' || /^(https?:\/\/|\/)/.test(draft.fetchProxy.trim());
  const confirmHost = keyNeedsConfirmation(draft.apiKey, draft.baseURL, hostBaseURL);
  const valid =
    maxTokensValid &&
    baseURLValid &&
    fetchProxyValid &&
    draft.model.trim() !== '' &&
    (!confirmHost || hostConfirmed);
  const listStale = savedListDiffers(draft, settings);
  const options = models.source === 'api' ? models.models : FALLBACK_MODELS;
  const listed = options.some((m) => m.id === draft.model);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    onSave({
      settings: {
        apiKey: draft.apiKey.trim(),
        baseURL: draft.baseURL.trim().replace(/\/+$/, ''),
        model: draft.model.trim(),
        maxTokens,
        permissionMode: draft.permissionMode,
        thinkingBudget: Number(draft.thinkingBudget) || 0,
        autoCompact: draft.autoCompact,
        autoCompactRatio: Number(draft.compactPercent) / 100,
        fetchProxy: draft.fetchProxy.trim(),
        toolSearchEncoder: draft.toolSearchEncoder,
      },
      theme: draft.theme,
      rememberKey: draft.remember,
    });
  };

  return (
    <dialog
      ref={ref}
      className="settings-dialog"
      data-testid="settings-dialog"
      aria-labelledby="settings-title"
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form onSubmit={submit} className="settings-form">
        <h2 id="settings-title">Settings</h2>
        <div className="field">
          <label className="field-label" htmlFor="settings-key">
            Anthropic API key
          </label>
          <div className="key-row">
            <input
              id="settings-key"
              type={showKey ? 'text' : 'password'}
              data-testid="api-key-input"
              value={open ? draft.apiKey : ''}
              placeholder="sk-ant-…"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => edit({ apiKey: e.target.value })}
            />
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setShowKey(!showKey)}
              data-testid="show-key"
              aria-pressed={showKey}
            >
              {showKey ? 'Hide' : 'Show'}
            </button>
          </div>
          <label className="check">
            <input
              type="checkbox"
              checked={draft.remember}
              onChange={(e) => edit({ remember: e.target.checked })}
              data-testid="remember-key"
            />
            Remember the key on this device (IndexedDB)
          </label>
          <span className="field-help">
            {draft.remember
              ? 'Saved in this browser so it survives reloads. Untick to delete it.'
              : "Kept in this tab's memory only: gone when the tab closes."}{' '}
            Sent only to the base URL below; never put in a URL, a log or a session export.
          </span>
        </div>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="text"
            data-testid="base-url-input"
            value={draft.baseURL}
            spellCheck={false}
            aria-invalid={!baseURLValid}
            onChange={(e) => edit({ baseURL: e.target.value })}
          />
          <span className="field-help">
            {import.meta.env.DEV
              ? "https://api.anthropic.com, your own proxy, or /api/anthropic for the dev server's proxy."
              : 'https://api.anthropic.com, or your own proxy to the Messages API.'}
          </span>
        </label>
        {confirmHost && (
          <div className="field host-base-url" role="alert" data-testid="host-base-url-warning">
            <span className="field-help">
              The page embedding tabcode chose this base URL, not you. Your key would be sent to{' '}
              <code>{originOf(draft.baseURL)}</code>.
            </span>
            <label className="check">
              <input
                type="checkbox"
                checked={hostConfirmed}
                onChange={(e) => setHostConfirmed(e.target.checked)}
                data-testid="confirm-host-base-url"
              />
              Send my key to {originOf(draft.baseURL)}
            </label>
          </div>
        )}
        <label className="field">
          <span className="field-label">WebFetch proxy</span>
          <input
            type="text"
            data-testid="fetch-proxy-input"
            value={draft.fetchProxy}
            spellCheck={false}
            placeholder={
              import.meta.env.DEV
                ? "(none: the dev server's /api/fetch, else direct)"
                : "(none: this site's /api/fetch if it has one, else direct)"
            }
            aria-invalid={!fetchProxyValid}
            onChange={(e) => edit({ fetchProxy: e.target.value })}
          />
          <span className="field-help">
            Pages cannot read most sites (CORS). Where the API has no server-side web fetch, WebFetch asks
            this proxy (<code>?url=</code>);{' '}
            {import.meta.env.DEV
              ? 'the dev server has one at /api/fetch.'
              : 'without one, WebFetch reads only sites that allow it.'}
          </span>
        </label>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Model</span>
            <select
              data-testid="model-select"
              value={draft.model}
              onChange={(e) => edit({ model: e.target.value })}
            >
              {!listed && draft.model && <option value={draft.model}>{draft.model}</option>}
              {options.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.displayName && m.displayName !== m.id ? `${m.displayName} (${m.id})` : m.id}
                </option>
              ))}
            </select>
            <span className="field-help" data-testid="models-source" data-source={models.source}>
              {listStale
                ? `${models.source === 'api' ? 'The saved key’s models' : 'The built-in list'}: save to list the models of the new key or base URL.`
                : models.source === 'api'
                  ? `${models.models.length} models listed by the API.`
                  : models.source === 'loading'
                    ? 'Asking the API for its models…'
                    : `Built-in list. ${models.reason}`}
            </span>
          </label>
          <label className="field field-narrow">
            <span className="field-label">Max tokens</span>
            <input
              type="number"
              min={1}
              step={1}
              data-testid="max-tokens-input"
              value={draft.maxTokens}
              aria-invalid={!maxTokensValid}
              onChange={(e) => edit({ maxTokens: e.target.value })}
            />
          </label>
        </div>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Permissions</span>
            <select
              data-testid="permission-mode-select"
              value={draft.permissionMode}
              onChange={(e) => edit({ permissionMode: e.target.value as PermissionMode })}
            >
              {PERMISSION_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {MODE_LABEL[mode]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Theme</span>
            <select
              data-testid="theme-select"
              value={draft.theme}
              onChange={(e) => edit({ theme: e.target.value as Theme })}
            >
              {THEMES.map((t) => (
                <option key={t} value={t}>
                  {THEME_LABEL[t]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Extended thinking</span>
            <select
              data-testid="thinking-select"
              value={draft.thinkingBudget}
              onChange={(e) => edit({ thinkingBudget: e.target.value })}
            >
              {THINKING_BUDGETS.map((b) => (
                <option key={b} value={String(b)}>
                  {b === 0 ? 'Off' : `${b.toLocaleString('en-US')} tokens`}
                </option>
              ))}
            </select>
            <span className="field-help">
              The model thinks before it answers; shown collapsed in the chat.
            </span>
          </label>
          <label className="field">
            <span className="field-label">Auto-compact</span>
            <select
              data-testid="auto-compact-select"
              value={draft.autoCompact ? draft.compactPercent : 'off'}
              onChange={(e) =>
                edit(
                  e.target.value === 'off'
                    ? { autoCompact: false }
                    : { autoCompact: true, compactPercent: e.target.value },
                )
              }
            >
              <option value="off">Off (only /compact)</option>
              {COMPACT_PERCENTS.map((p) => (
                <option key={p} value={String(p)}>
                  At {p}% of the context window
                </option>
              ))}
            </select>
            <span className="field-help">
              Old tool results are cleared first, then the conversation is summarized.
            </span>
          </label>
        </div>
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              checked={draft.toolSearchEncoder}
              onChange={(e) => edit({ toolSearchEncoder: e.target.checked })}
              data-testid="tool-search-encoder"
            />
            ToolSearch understands meaning (sentence encoder)
          </label>
          <span className="field-help">
            {draft.toolSearchEncoder
              ? 'Downloads about 30 MB once, from this site, when an MCP server first has tools to search.'
              : 'Off: nothing is downloaded; ToolSearch matches words and their near synonyms only.'}
          </span>
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose} data-testid="settings-cancel">
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!valid} data-testid="settings-save">
            Save
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Thinking budgets offered (0: off). */
const THINKING_BUDGETS = [0, MIN_THINKING_BUDGET_TOKENS, DEFAULT_THINKING_BUDGET_TOKENS, 16_000, 32_000];
/** Auto-compaction thresholds offered (percent of the window). */
const COMPACT_PERCENTS = [50, 60, 70, 75, 80, 85, 90, 95];

type Draft = ReturnType<typeof toDraft>;

function toDraft(settings: AgentSettings, theme: Theme, remember: boolean) {
  return {
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    model: settings.model,
    maxTokens: String(settings.maxTokens),
    permissionMode: settings.permissionMode,
    thinkingBudget: String(settings.thinkingBudget ?? 0),
    autoCompact: settings.autoCompact !== false,
    compactPercent: String(Math.round((settings.autoCompactRatio ?? DEFAULT_AUTO_COMPACT_RATIO) * 100)),
    fetchProxy: settings.fetchProxy ?? '',
    toolSearchEncoder: settings.toolSearchEncoder !== false,
    theme,
    remember,
  };
}

/** Why the model list could not be fetched, in a few words (never the key). */
function modelsError(err: unknown): string {
  const status = (err as { status?: unknown })?.status;
  if (status === 401 || status === 403) return `The API rejected the key (${status}).`;
  if (typeof status === 'number') return `The API answered ${status}.`;
  return 'Could not reach the API.';
}
