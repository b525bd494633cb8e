/**
 * The files panel: the workspace as a tree (directories fold), refreshed on sandbox changes (debounced)
 * and whenever `refreshKey` changes; a click shows the file with syntax highlighting and line numbers.
 * Files are reached only through the Sandbox interface.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { CopyButton } from './CopyButton.tsx';
import { buildTree, type TreeDir } from './file-tree.ts';
import { relativePath } from './format.ts';
import { HighlightedCode } from './HighlightedCode.tsx';
import { languageOfPath } from './language.ts';

const REFRESH_DEBOUNCE_MS = 150;
/** Longest file the viewer shows in full (characters). */
const VIEWER_MAX_CHARS = 200_000;

interface FilesPanelProps {
  sandbox: Sandbox | null;
  refreshKey: number;
  /** A file to open (relative path); a new object opens it again. */
  openRequest?: { path: string } | null;
}

type Viewed = { path: string; content: string; error?: undefined } | { path: string; error: string };

function FilesPanelView({ sandbox, refreshKey, openRequest }: FilesPanelProps) {
  const [files, setFiles] = useState<string[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [viewed, setViewed] = useState<Viewed | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;
  const root = sandbox?.root ?? '';

  // A new sandbox (another session) starts with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the sandbox changes
  useEffect(() => {
    setSelected(null);
    setViewed(null);
    setFiles(null);
  }, [sandbox]);

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

  const tree = useMemo(
    () => (files ? buildTree(files.map((abs) => relativePath(root, abs))) : null),
    [files, root],
  );

  const open = (rel: string) => {
    const abs = `${root}/${rel}`;
    setSelected(abs);
    selectedRef.current = abs;
    setViewed(null);
    void load(abs);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new request object is the trigger
  useEffect(() => {
    if (openRequest && sandbox) open(openRequest.path);
  }, [openRequest, sandbox]);

  const toggle = (dir: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(dir)) next.delete(dir);
      else next.add(dir);
      return next;
    });

  const selectedRel = selected ? relativePath(root, selected) : null;

  return (
    <div className="files-panel">
      <div className="panel-head">
        <span className="panel-title">Workspace</span>
        {files && (
          <span className="muted panel-count" title={root}>
            {files.length} file{files.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <div className="file-list-wrap">
        {!sandbox && <div className="muted panel-empty">Starting the sandbox…</div>}
        {listError && <div className="panel-error">{listError}</div>}
        {files && files.length === 0 && <div className="muted panel-empty">The project is empty.</div>}
        {tree && files && files.length > 0 && (
          <ul className="file-tree" data-testid="file-list" aria-label="Workspace files">
            <DirChildren
              dir={tree}
              depth={0}
              collapsed={collapsed}
              selected={selectedRel}
              onToggle={toggle}
              onOpen={open}
            />
          </ul>
        )}
      </div>
      {selected && selectedRel !== null && (
        <FileViewer
          path={selectedRel}
          viewed={viewed}
          onClose={() => {
            setSelected(null);
            setViewed(null);
          }}
        />
      )}
    </div>
  );
}

interface DirProps {
  dir: TreeDir;
  depth: number;
  collapsed: ReadonlySet<string>;
  selected: string | null;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
}

function DirChildren({ dir, depth, collapsed, selected, onToggle, onOpen }: DirProps) {
  const pad = { paddingLeft: `${8 + depth * 14}px` };
  return (
    <>
      {dir.dirs.map((d) => {
        const isOpen = !collapsed.has(d.path);
        return (
          <li key={d.path}>
            <button
              type="button"
              aria-expanded={isOpen}
              className="file-item file-dir-item"
              style={pad}
              onClick={() => onToggle(d.path)}
              data-testid="dir-item"
              data-path={d.path}
            >
              <span className={`chevron ${isOpen ? 'open' : ''}`} aria-hidden="true">
                ▸
              </span>
              <span className="file-name">{d.name}/</span>
            </button>
            {isOpen && (
              <ul>
                <DirChildren
                  dir={d}
                  depth={depth + 1}
                  collapsed={collapsed}
                  selected={selected}
                  onToggle={onToggle}
                  onOpen={onOpen}
                />
              </ul>
            )}
          </li>
        );
      })}
      {dir.files.map((f) => (
        <li key={f.path}>
          <button
            type="button"
            className={`file-item ${f.path === selected ? 'selected' : ''}`}
            style={pad}
            data-testid="file-item"
            data-path={f.path}
            title={f.path}
            onClick={() => onOpen(f.path)}
          >
            <span className="file-icon" aria-hidden="true" />
            <span className="file-name">{f.name}</span>
          </button>
        </li>
      ))}
    </>
  );
}

function FileViewer({ path, viewed, onClose }: { path: string; viewed: Viewed | null; onClose: () => void }) {
  const content = viewed && viewed.error === undefined ? viewed.content : '';
  const lines = useMemo(() => {
    const n = content === '' ? 1 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return Array.from({ length: Math.max(1, n) }, (_, i) => i + 1).join('\n');
  }, [content]);
  return (
    <div className="file-viewer" data-testid="file-viewer" data-path={path}>
      <div className="panel-head">
        <span className="panel-title mono">{path}</span>
        {content && <CopyButton text={content} testId="copy-file" />}
        <button type="button" className="icon-btn" aria-label="Close file" title="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {viewed?.error !== undefined ? (
        <div className="panel-error">{viewed.error}</div>
      ) : (
        <div className="file-scroll">
          <pre className="file-gutter" aria-hidden="true">
            {lines}
          </pre>
          <pre className="file-content" data-testid="file-content">
            <HighlightedCode code={content} language={languageOfPath(path)} />
          </pre>
        </div>
      )}
    </div>
  );
}

/** FilesPanel, re-rendered only when its props change. */
export const FilesPanel = memo(FilesPanelView);
