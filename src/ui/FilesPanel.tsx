/**
 * The side panel: every file in the sandbox (relative to its root), refreshed on sandbox changes
 * (debounced) and whenever `refreshKey` changes; a click shows the file in a read-only viewer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { relativePath } from './format.ts';

const REFRESH_DEBOUNCE_MS = 150;
/** Longest file the viewer shows in full (characters). */
const VIEWER_MAX_CHARS = 200_000;

interface FilesPanelProps {
  sandbox: Sandbox | null;
  refreshKey: number;
}

type Viewed = { path: string; content: string; error?: undefined } | { path: string; error: string };

export function FilesPanel({ sandbox, refreshKey }: FilesPanelProps) {
  const [files, setFiles] = useState<string[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [viewed, setViewed] = useState<Viewed | null>(null);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;

  const load = useCallback(
    async (path: string) => {
      if (!sandbox) return;
      try {
        const content = await sandbox.readFile(path);
        if (selectedRef.current !== path) return;
        setViewed({
          path,
          content:
            content.length > VIEWER_MAX_CHARS
              ? `${content.slice(0, VIEWER_MAX_CHARS)}\n… (${content.length - VIEWER_MAX_CHARS} more characters)`
              : content,
        });
      } catch (err) {
        if (selectedRef.current !== path) return;
        setViewed({ path, error: err instanceof Error ? err.message : String(err) });
      }
    },
    [sandbox],
  );

  const refresh = useCallback(async () => {
    if (!sandbox) return;
    try {
      const list = await sandbox.listFiles();
      setFiles(list);
      setListError(null);
      const current = selectedRef.current;
      if (current) {
        if (list.includes(current)) void load(current);
        else setViewed({ path: current, error: 'This file no longer exists.' });
      }
    } catch (err) {
      setListError(err instanceof Error ? err.message : String(err));
    }
  }, [sandbox, load]);

  // Sandbox changes arrive in bursts (a Bash command touches many files): refresh once per burst.
  useEffect(() => {
    if (!sandbox) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = sandbox.onChange(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [sandbox, refresh]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey is the trigger
  useEffect(() => {
    void refresh();
  }, [refresh, refreshKey]);

  const open = (path: string) => {
    setSelected(path);
    selectedRef.current = path;
    setViewed(null);
    void load(path);
  };

  const root = sandbox?.root ?? '';

  return (
    <aside className="side-panel" aria-label="Files">
      <div className="panel-head">
        <span className="panel-title">Files</span>
        {files && <span className="muted panel-count">{files.length}</span>}
      </div>
      <div className="file-list-wrap">
        {!sandbox && <div className="muted panel-empty">Starting the sandbox…</div>}
        {listError && <div className="panel-error">{listError}</div>}
        {files && files.length === 0 && <div className="muted panel-empty">The project is empty.</div>}
        {files && files.length > 0 && (
          <ul className="file-list" data-testid="file-list">
            {files.map((abs) => {
              const rel = relativePath(root, abs);
              const slash = rel.lastIndexOf('/');
              return (
                <li key={abs}>
                  <button
                    type="button"
                    className={`file-item ${abs === selected ? 'selected' : ''}`}
                    data-testid="file-item"
                    data-path={rel}
                    title={rel}
                    onClick={() => open(abs)}
                  >
                    {slash >= 0 && <span className="file-dir">{rel.slice(0, slash + 1)}</span>}
                    <span className="file-name">{rel.slice(slash + 1)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {selected && (
        <div className="file-viewer" data-testid="file-viewer" data-path={relativePath(root, selected)}>
          <div className="panel-head">
            <span className="panel-title mono">{relativePath(root, selected)}</span>
            <button
              type="button"
              className="icon-btn"
              aria-label="Close file"
              title="Close"
              onClick={() => {
                setSelected(null);
                setViewed(null);
              }}
            >
              ×
            </button>
          </div>
          {viewed?.error !== undefined ? (
            <div className="panel-error">{viewed.error}</div>
          ) : (
            <pre className="file-content" data-testid="file-content">
              {viewed ? viewed.content : ''}
            </pre>
          )}
        </div>
      )}
    </aside>
  );
}
