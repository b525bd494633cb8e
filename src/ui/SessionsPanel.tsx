/**
 * The sessions list: new, switch, rename, delete, export (JSON download), import (a file; a malformed
 * one is refused with the reason and nothing stored changes).
 */
import { type ChangeEvent, memo, useRef, useState } from 'react';
import type { ImportResult } from '../agent/session-export.ts';
import type { SessionMeta } from '../agent/sessions-store.ts';
import { downloadText } from './download.ts';
import { Icon } from './icons.tsx';

interface SessionsPanelProps {
  sessions: SessionMeta[];
  currentId: string | null;
  /** Title of the open session (it may not be saved yet). */
  currentTitle: string;
  /** The open session has nothing to save yet (a new session): it is listed as "not saved yet". */
  currentEmpty: boolean;
  onNew: () => void;
  onSwitch: (id: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
  onExport: (id: string) => Promise<{ name: string; json: string } | undefined>;
  onImport: (text: string) => Promise<ImportResult>;
}

function SessionsPanelView(props: SessionsPanelProps) {
  const { sessions, currentId, currentTitle, currentEmpty } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [importState, setImportState] = useState<{ error?: string; ok?: string } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const list =
    currentId && currentEmpty && !sessions.some((s) => s.id === currentId)
      ? [{ id: currentId, title: currentTitle, createdAt: 0, updatedAt: 0, messageCount: 0 }, ...sessions]
      : sessions;

  const startRename = (s: SessionMeta) => {
    setEditing(s.id);
    setDraft(s.title);
  };
  const commitRename = () => {
    if (editing && draft.trim()) props.onRename(editing, draft.trim());
    setEditing(null);
  };

  const download = async (id: string) => {
    const out = await props.onExport(id);
    if (out) downloadText(out.name, out.json, 'application/json');
  };

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch (err) {
      setImportState({ error: `The file could not be read: ${String(err)}` });
      return;
    }
    const result = await props.onImport(text);
    setImportState(result.ok ? { ok: `Imported "${result.record.title}".` } : { error: result.reason });
  };

  return (
    <nav className="sessions-panel" aria-label="Sessions" data-testid="sessions-panel">
      <div className="panel-head">
        <span className="panel-title">Sessions</span>
        <button
          type="button"
          className="btn btn-small btn-primary"
          onClick={props.onNew}
          data-testid="new-session"
        >
          + New
        </button>
      </div>
      <ul className="session-list" data-testid="session-list">
        {list.map((s) => {
          const current = s.id === currentId;
          return (
            <li
              key={s.id}
              className={`session-item ${current ? 'current' : ''}`}
              data-testid="session-item"
              data-session-id={s.id}
              data-current={current}
            >
              {editing === s.id ? (
                <input
                  className="session-rename"
                  data-testid="session-rename-input"
                  value={draft}
                  aria-label="Session name"
                  autoFocus
                  onChange={(e) => setDraft(e.target.value)}
                  onBlur={commitRename}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') commitRename();
                    if (e.key === 'Escape') {
                      e.stopPropagation();
                      setEditing(null);
                    }
                  }}
                />
              ) : (
                <button
                  type="button"
                  className="session-open"
                  aria-current={current ? 'true' : undefined}
                  onClick={() => props.onSwitch(s.id)}
                  onDoubleClick={() => startRename(s)}
                  data-testid="session-open"
                  title={s.title}
                >
                  <span className="session-title" data-testid="session-title">
                    {s.title}
                  </span>
                  <span className="session-sub muted">
                    {s.updatedAt ? `${relativeTime(s.updatedAt)} · ${s.messageCount} msg` : 'not saved yet'}
                  </span>
                </button>
              )}
              <span className="session-actions">
                <button
                  type="button"
                  className="icon-btn"
                  title="Rename"
                  aria-label={`Rename ${s.title}`}
                  data-testid="session-rename"
                  onClick={() => startRename(s)}
                >
                  <Icon name="pencil" />
                </button>
                <button
                  type="button"
                  className="icon-btn"
                  title="Export JSON"
                  aria-label={`Export ${s.title}`}
                  data-testid="session-export"
                  onClick={() => void download(s.id)}
                >
                  <Icon name="download" />
                </button>
                <button
                  type="button"
                  className="icon-btn"
                  title="Delete"
                  aria-label={`Delete ${s.title}`}
                  data-testid="session-delete"
                  onClick={() => {
                    if (window.confirm(`Delete "${s.title}"? This cannot be undone.`)) props.onDelete(s.id);
                  }}
                >
                  <Icon name="trash" />
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <div className="sessions-foot">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => fileRef.current?.click()}
          data-testid="import-session"
        >
          Import JSON…
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          hidden
          onChange={onFile}
          data-testid="import-file"
        />
        {importState?.error && (
          <div className="import-error" role="alert" data-testid="import-error">
            Import refused: {importState.error}
          </div>
        )}
        {importState?.ok && (
          <div className="import-ok muted" role="status" data-testid="import-ok">
            {importState.ok}
          </div>
        )}
      </div>
    </nav>
  );
}

function relativeTime(at: number): string {
  const s = Math.round((Date.now() - at) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(at).toLocaleDateString();
}

/** SessionsPanel, re-rendered only when its props change. */
export const SessionsPanel = memo(SessionsPanelView);
