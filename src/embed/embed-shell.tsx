/**
 * What `mount()` renders: the workbench, with the refused config fields listed above it (dismissable)
 * so the host's author sees them in the page, not only in the console.
 */
import { useState } from 'react';
import { App, type AppProps } from '../ui/App.tsx';
import type { EmbedWarning } from './config.ts';

export interface EmbedShellProps {
  app: AppProps;
  warnings: readonly EmbedWarning[];
}

export function EmbedShell({ app, warnings }: EmbedShellProps) {
  const [dismissed, setDismissed] = useState(false);
  const shown = !dismissed && warnings.length > 0;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }} data-testid="embed-shell">
      {shown && (
        <div
          className="banner banner-warn"
          role="alert"
          data-testid="embed-warnings"
          style={{ margin: 8, flex: 'none', maxHeight: '30%', overflow: 'auto' }}
        >
          <div className="banner-text">
            <div>
              The embed config has {warnings.length === 1 ? 'a field' : `${warnings.length} fields`} that
              {warnings.length === 1 ? ' was' : ' were'} ignored:
            </div>
            {warnings.map((w) => (
              <div className="banner-detail" data-testid="embed-warning" data-field={w.field} key={w.field}>
                <code>{w.field}</code>: {w.message}
              </div>
            ))}
          </div>
          <button type="button" className="btn" onClick={() => setDismissed(true)}>
            Dismiss
          </button>
        </div>
      )}
      <div style={{ flex: 1, minHeight: 0 }}>
        <App {...app} />
      </div>
    </div>
  );
}
