/** The top bar: panel toggles, name, save status, usage meter, sandbox kind, model and settings. */
import type { RequestUsage } from '../agent/sessions-store.ts';
import type { SandboxInfo } from '../sandbox/sandbox.ts';
import { ContextMeter, type ContextMeterProps } from './ContextMeter.tsx';
// Bundled, not a file beside the page: a package playground's page is the host's, where no favicon is.
import logoUrl from './logo.svg';
import type { SaveStatus } from './session-model.ts';
import { UsageMeter } from './UsageMeter.tsx';

interface HeaderProps {
  sandbox: SandboxInfo | null;
  model: string;
  save: SaveStatus | null;
  saveError?: string;
  usage: readonly RequestUsage[];
  /** The context meter's figures (left out until the window is known). */
  context?: Omit<ContextMeterProps, 'variant' | 'onOpen'>;
  /** A scripted demo (no model): token figures come from the script and nothing is billed. */
  demo?: boolean;
  sessionsOpen: boolean;
  sideOpen: boolean;
  onToggleSessions: () => void;
  onToggleSide: () => void;
  onOpenUsage: () => void;
  onOpenSettings: () => void;
}

const SAVE_LABEL: Record<SaveStatus, string> = {
  saved: 'Saved',
  pending: 'Saving…',
  error: 'Not saved',
  readonly: 'Read-only',
};

export function Header(props: HeaderProps) {
  const { sandbox, save } = props;
  return (
    <header className="app-header">
      <div className="brand">
        <button
          type="button"
          className="icon-btn"
          onClick={props.onToggleSessions}
          aria-pressed={props.sessionsOpen}
          aria-label="Sessions list (Ctrl+B)"
          title="Sessions list (Ctrl+B)"
          data-testid="toggle-sessions"
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path fill="currentColor" d="M3 5h18v2H3zm0 6h18v2H3zm0 6h18v2H3z" />
          </svg>
        </button>
        <img className="brand-logo" src={logoUrl} alt="" width={20} height={20} />
        <h1 className="brand-name">tabcode</h1>
        <span className="brand-tag muted">a coding agent in your browser tab</span>
      </div>
      <div className="header-right">
        {save && (
          <span
            className={`save-status save-${save}`}
            data-testid="save-status"
            data-state={save}
            title={props.saveError ?? 'Sessions are saved in this browser (IndexedDB)'}
          >
            {SAVE_LABEL[save]}
          </span>
        )}
        {props.context && <ContextMeter {...props.context} variant="header" onOpen={props.onOpenUsage} />}
        <UsageMeter requests={props.usage} demo={props.demo} onOpen={props.onOpenUsage} />
        <span
          className={`badge ${sandbox ? `badge-${sandbox.kind}` : 'badge-loading'}`}
          data-testid="sandbox-badge"
          data-kind={sandbox?.kind ?? ''}
          title={sandbox?.reason ?? 'Starting the sandbox…'}
        >
          <span className="badge-dot" aria-hidden="true" />
          {sandbox ? sandbox.kind : 'starting…'}
        </span>
        <span className="model-name mono muted" title="Model" data-testid="model-name">
          {props.model}
        </span>
        <button
          type="button"
          className="icon-btn"
          onClick={props.onToggleSide}
          aria-pressed={props.sideOpen}
          aria-label="Side panel (Ctrl+J)"
          title="Side panel (Ctrl+J)"
          data-testid="toggle-side"
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path fill="currentColor" d="M3 4h18v16H3zm2 2v12h9V6zm11 0v12h3V6z" />
          </svg>
        </button>
        <button
          type="button"
          className="icon-btn settings-btn"
          onClick={props.onOpenSettings}
          data-testid="settings-button"
          aria-label="Settings"
          title="Settings (Ctrl+,)"
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path
              fill="currentColor"
              d="M19.14 12.94a7.5 7.5 0 0 0 0-1.88l2.03-1.58a.5.5 0 0 0 .12-.64l-1.92-3.32a.5.5 0 0 0-.6-.22l-2.39.96a7.3 7.3 0 0 0-1.63-.94l-.36-2.54A.5.5 0 0 0 13.9 2h-3.8a.5.5 0 0 0-.5.42l-.36 2.54c-.58.24-1.13.55-1.63.94l-2.39-.96a.5.5 0 0 0-.6.22L2.7 8.48a.5.5 0 0 0 .12.64l2.03 1.58a7.5 7.5 0 0 0 0 1.88l-2.03 1.58a.5.5 0 0 0-.12.64l1.92 3.32c.13.22.39.31.6.22l2.39-.96c.5.39 1.05.7 1.63.94l.36 2.54c.04.24.25.42.5.42h3.8c.25 0 .46-.18.5-.42l.36-2.54c.58-.24 1.13-.55 1.63-.94l2.39.96c.22.09.47 0 .6-.22l1.92-3.32a.5.5 0 0 0-.12-.64l-2.03-1.58zM12 15.5A3.5 3.5 0 1 1 12 8.5a3.5 3.5 0 0 1 0 7z"
            />
          </svg>
        </button>
      </div>
    </header>
  );
}
