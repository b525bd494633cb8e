/** Settings: API key (kept in this tab's memory only), base URL, model, max tokens, permission mode. */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { AgentSettings } from '../agent/types.ts';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';

interface SettingsDialogProps {
  open: boolean;
  settings: AgentSettings;
  onSave: (patch: Partial<AgentSettings>) => void;
  onClose: () => void;
}

const MODE_LABEL: Record<PermissionMode, string> = {
  default: 'Ask before changes (default)',
  acceptEdits: 'Accept file edits',
  plan: 'Plan only (read-only)',
  bypassPermissions: 'Allow everything',
  dontAsk: 'Never ask (deny what is not allowed)',
};

export function SettingsDialog({ open, settings, onSave, onClose }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState(() => toDraft(settings));

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setDraft(toDraft(settings));
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, settings]);

  const maxTokens = Number(draft.maxTokens);
  const maxTokensValid = Number.isInteger(maxTokens) && maxTokens > 0;
  const baseURLValid = draft.baseURL.trim() !== '';
  const valid = maxTokensValid && baseURLValid && draft.model.trim() !== '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    onSave({
      apiKey: draft.apiKey.trim(),
      baseURL: draft.baseURL.trim().replace(/\/+$/, ''),
      model: draft.model.trim(),
      maxTokens,
      permissionMode: draft.permissionMode,
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
        <label className="field">
          <span className="field-label">Anthropic API key</span>
          <input
            type="password"
            data-testid="api-key-input"
            value={draft.apiKey}
            placeholder="sk-ant-…"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setDraft({ ...draft, apiKey: e.target.value })}
          />
          <span className="field-help">Kept in this tab's memory only; sent only to the base URL below.</span>
        </label>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="text"
            data-testid="base-url-input"
            value={draft.baseURL}
            spellCheck={false}
            onChange={(e) => setDraft({ ...draft, baseURL: e.target.value })}
          />
          <span className="field-help">
            https://api.anthropic.com, or /api/anthropic for the dev server's proxy.
          </span>
        </label>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Model</span>
            <input
              type="text"
              data-testid="model-input"
              value={draft.model}
              spellCheck={false}
              onChange={(e) => setDraft({ ...draft, model: e.target.value })}
            />
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
              onChange={(e) => setDraft({ ...draft, maxTokens: e.target.value })}
            />
          </label>
        </div>
        <label className="field">
          <span className="field-label">Permissions</span>
          <select
            data-testid="permission-mode-select"
            value={draft.permissionMode}
            onChange={(e) => setDraft({ ...draft, permissionMode: e.target.value as PermissionMode })}
          >
            {PERMISSION_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABEL[mode]}
              </option>
            ))}
          </select>
        </label>
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

function toDraft(settings: AgentSettings) {
  return {
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    model: settings.model,
    maxTokens: String(settings.maxTokens),
    permissionMode: settings.permissionMode,
  };
}
