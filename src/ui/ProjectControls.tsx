/**
 * The sandbox and project controls: which sandbox runs and why, the sandbox setting (takes effect on
 * reload), whether the project is saved in the browser (storage errors shown, never dropped), and
 * "Reset project" (back to the demo files). Reaches the project only through `sandboxHost(sandbox)`.
 */
import { useEffect, useState } from 'react';
import { messageOf } from '../core/errors.ts';
import type { PersistStatus } from '../sandbox/persist.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import {
  readSandboxPreference,
  SANDBOX_PREFERENCES,
  type SandboxPreference,
  sandboxHost,
  saveSandboxPreference,
} from '../sandbox/select.ts';
import { SANDBOX_LABELS as LABELS } from './sandbox-labels.ts';

function statusText(status: PersistStatus): string {
  switch (status.state) {
    case 'pending':
    case 'saving':
      return 'Saving project files…';
    case 'saved':
      return `Project saved in this browser (${status.files ?? 0} files).`;
    case 'error':
      return status.error ?? 'Project files could not be saved.';
    default:
      return 'Project files are saved in this browser as they change.';
  }
}

export function ProjectControls({ sandbox }: { sandbox: Sandbox | null }) {
  const host = sandbox ? sandboxHost(sandbox) : undefined;
  const [status, setStatus] = useState<PersistStatus>(() => host?.persistence?.status() ?? { state: 'idle' });
  const [choice, setChoice] = useState<SandboxPreference>(() => readSandboxPreference().preference);
  const [resetting, setResetting] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    const persistence = host?.persistence;
    if (!persistence) return;
    setStatus(persistence.status());
    return persistence.onStatus(setStatus);
  }, [host]);

  if (!sandbox) return null;
  const info = sandbox.info();

  const reset = async () => {
    if (!host?.persistence) return;
    if (!window.confirm('Replace every file in the project with the demo project? This cannot be undone.'))
      return;
    setResetting(true);
    try {
      await host.persistence.resetProject();
      setNote('The project is back to the demo files.');
    } catch (err) {
      setNote(`Reset failed: ${messageOf(err)}`);
    } finally {
      setResetting(false);
    }
  };

  const choose = (value: SandboxPreference) => {
    setChoice(value);
    setNote(
      saveSandboxPreference(value)
        ? 'Saved. The sandbox changes when the page reloads (your files come along).'
        : 'The setting could not be saved (storage is blocked); use ?sandbox= in the URL instead.',
    );
  };

  return (
    <div className="project-controls" data-testid="project-controls">
      <p className="project-sandbox" data-testid="sandbox-reason" data-kind={info.kind}>
        <strong>{info.kind}</strong> — {info.reason}
      </p>
      <label className="project-choice">
        Sandbox{' '}
        <select
          value={choice}
          onChange={(e) => choose(e.target.value as SandboxPreference)}
          data-testid="sandbox-choice"
        >
          {SANDBOX_PREFERENCES.map((p) => (
            <option key={p} value={p}>
              {LABELS[p]}
            </option>
          ))}
        </select>
      </label>
      {host?.persistence && (
        <p
          className={status.state === 'error' ? 'project-status panel-error' : 'project-status muted'}
          data-testid="project-storage"
          data-state={status.state}
          role={status.state === 'error' ? 'alert' : undefined}
        >
          {statusText(status)}
        </p>
      )}
      {host?.persistence && (
        <button
          type="button"
          className="btn btn-ghost btn-tiny"
          onClick={reset}
          disabled={resetting}
          data-testid="reset-project"
        >
          {resetting ? 'Resetting…' : 'Reset project'}
        </button>
      )}
      {note && <p className="muted project-note">{note}</p>}
    </div>
  );
}
