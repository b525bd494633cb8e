/**
 * The files panel: the workspace as a tree (folders fold, empty ones show), refreshed on sandbox changes
 * (debounced) and whenever `refreshKey` changes. Files and folders are created, renamed, deleted,
 * uploaded (picker or drop, folders included) and downloaded (a file, or the project as a zip); a click
 * opens a file to read or edit by hand (FileViewer). Everything goes through the Sandbox interface.
 */
import { type DragEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { messageOf } from '../core/errors.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { downloadBlob } from './download.ts';
import { readOpenFile, writeOpenFile } from './editor-drafts.ts';
import { DirChildren, NameField, ToolButton } from './FileTree.tsx';
import { FileViewer, type Viewed } from './FileViewer.tsx';
import {
  entriesFromDrop,
  entriesFromFileList,
  listTree,
  pathProblem,
  type UploadEntry,
  type UploadOutcome,
  uploadEntries,
  visibleName,
  type WorkspaceTree,
  zipProject,
} from './file-ops.ts';
import { buildTree } from './file-tree.ts';

const REFRESH_DEBOUNCE_MS = 150;

interface FilesPanelProps {
  sandbox: Sandbox | null;
  refreshKey: number;
  /** A file to open (relative path); a new object opens it again. */
  openRequest?: { path: string } | null;
  /** A file was changed by hand (absolute path): the agent is told. */
  onUserEdit?: (absPath: string) => void;
}

/** An inline name field: a new file or folder (in `dir`), or a rename of `path`. */
type Naming = { kind: 'file' | 'dir'; dir: string } | { kind: 'rename'; path: string; isDir: boolean };

/** What the panel says after an action (an upload's refusals, a failure, a zip in progress). */
type Note = { kind: 'ok' | 'error' | 'busy'; text: string; details?: string[] };

function FilesPanelView({ sandbox, refreshKey, openRequest, onUserEdit }: FilesPanelProps) {
  const [tree, setTree] = useState<WorkspaceTree | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [viewed, setViewed] = useState<Viewed | null>(null);
  /** Folders toggled away from how they start (open, or folded when large). */
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [naming, setNaming] = useState<Naming | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [dragging, setDragging] = useState(false);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;
  /** The file this tab had open before a reload is opened again once, with the first tree read. */
  const restoreOpen = useRef(true);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  // A new sandbox (another session) starts with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the sandbox changes
  useEffect(() => {
    setSelected(null);
    setViewed(null);
    setTree(null);
  }, [sandbox]);

  const load = useCallback(
    async (rel: string) => {
      if (!sandbox) return;
      try {
        const bytes = await sandbox.readFileBytes(`${sandbox.root}/${rel}`);
        if (selectedRef.current !== rel) return;
        const binary = bytes.includes(0);
        setViewed({ path: rel, content: binary ? '' : new TextDecoder().decode(bytes), binary });
      } catch (err) {
        if (selectedRef.current !== rel) return;
        setViewed({ path: rel, error: messageOf(err) });
      }
    },
    [sandbox],
  );

  /** True while an upload writes: the tree is read once it is over, not after every file. */
  const busyRef = useRef(false);
  const refresh = useCallback(async () => {
    if (!sandbox || busyRef.current) return;
    try {
      const next = await listTree(sandbox);
      setTree(next);
      setListError(null);
      if (restoreOpen.current) {
        restoreOpen.current = false;
        const abs = readOpenFile();
        const rel = abs?.startsWith(`${sandbox.root}/`) ? abs.slice(sandbox.root.length + 1) : undefined;
        // Selected here; it is read just below, as the open file is on every refresh.
        if (rel && !selectedRef.current && next.files.includes(rel)) {
          selectedRef.current = rel;
          setSelected(rel);
        }
      }
      const current = selectedRef.current;
      if (current) {
        if (next.files.includes(current)) void load(current);
        else setViewed({ path: current, error: 'This file no longer exists.' });
      }
    } catch (err) {
      setListError(messageOf(err));
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

  const root = useMemo(() => (tree ? buildTree(tree.files, tree.dirs) : null), [tree]);

  const open = (rel: string) => {
    setSelected(rel);
    selectedRef.current = rel;
    if (sandbox) writeOpenFile(`${sandbox.root}/${rel}`);
    setViewed(null);
    void load(rel);
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

  /** Runs a change, saying what failed; refreshes after. */
  const act = async (what: () => Promise<void>, done?: string) => {
    try {
      await what();
      setNote(done ? { kind: 'ok', text: done } : null);
    } catch (err) {
      setNote({ kind: 'error', text: messageOf(err) });
    }
    void refresh();
  };

  const commitName = (value: string) => {
    if (!sandbox || !naming) return;
    const name = value.trim();
    const problem = pathProblem(name);
    if (problem) {
      setNote({ kind: 'error', text: problem });
      return;
    }
    const current = naming;
    setNaming(null);
    if (current.kind === 'rename') {
      const slash = current.path.lastIndexOf('/');
      const to = slash < 0 ? name : `${current.path.slice(0, slash)}/${name}`;
      if (to === current.path) return;
      void act(
        async () => {
          if (await sandbox.exists(`${sandbox.root}/${to}`))
            throw new Error(`${visibleName(to)} already exists.`);
          await sandbox.rename(`${sandbox.root}/${current.path}`, `${sandbox.root}/${to}`);
          onUserEdit?.(`${sandbox.root}/${current.path}`);
          if (selectedRef.current === current.path) open(to);
        },
        `Renamed to ${visibleName(to)}.`,
      );
      return;
    }
    const rel = current.dir ? `${current.dir}/${name}` : name;
    const abs = `${sandbox.root}/${rel}`;
    void act(
      async () => {
        if (await sandbox.exists(abs)) throw new Error(`${visibleName(rel)} already exists.`);
        if (current.kind === 'dir') await sandbox.mkdir(abs, { recursive: true });
        else {
          await sandbox.writeFile(abs, '');
          open(rel);
        }
      },
      `Created ${visibleName(rel)}.`,
    );
  };

  const remove = (rel: string, isDir: boolean) => {
    if (!sandbox) return;
    if (
      !window.confirm(
        `Delete ${isDir ? 'the folder ' : ''}${visibleName(rel)}${isDir ? ' and all it holds' : ''}?`,
      )
    )
      return;
    void act(
      async () => {
        await sandbox.rm(`${sandbox.root}/${rel}`, { recursive: isDir, force: true });
        onUserEdit?.(`${sandbox.root}/${rel}`);
        if (
          selectedRef.current &&
          (selectedRef.current === rel || selectedRef.current.startsWith(`${rel}/`))
        ) {
          writeOpenFile(null);
          setSelected(null);
          setViewed(null);
        }
      },
      `Deleted ${visibleName(rel)}.`,
    );
  };

  const upload = async (entries: UploadEntry[], dir = '') => {
    if (!sandbox || entries.length === 0) return;
    setNote({ kind: 'busy', text: `Uploading ${entries.length} file${entries.length === 1 ? '' : 's'}…` });
    busyRef.current = true;
    let outcome: UploadOutcome;
    try {
      outcome = await uploadEntries(sandbox, dir, entries, (done, total) =>
        setNote({ kind: 'busy', text: `Uploading ${done} of ${total} files…` }),
      );
    } finally {
      busyRef.current = false;
    }
    for (const path of outcome.written) onUserEdit?.(`${sandbox.root}/${path}`);
    setNote({
      kind: outcome.refused.length ? 'error' : 'ok',
      text: `Uploaded ${outcome.written.length} file${outcome.written.length === 1 ? '' : 's'}${
        outcome.refused.length ? `; ${outcome.refused.length} refused` : ''
      }.`,
      details: outcome.refused.slice(0, 20).map((r) => `${visibleName(r.path)}: ${r.reason}`),
    });
    void refresh();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void entriesFromDrop(e.dataTransfer).then((entries) => upload(entries));
  };

  const downloadZip = async () => {
    if (!sandbox) return;
    setNote({ kind: 'busy', text: 'Making the zip…' });
    try {
      const blob = await zipProject(sandbox, (done, total) =>
        setNote({ kind: 'busy', text: `Zipping ${done} of ${total} files…` }),
      );
      downloadBlob('project.zip', blob);
      setNote({ kind: 'ok', text: `project.zip is ready (${(blob.size / 1024).toFixed(0)} KB).` });
    } catch (err) {
      setNote({ kind: 'error', text: `The zip failed: ${messageOf(err)}` });
    }
  };

  const fileCount = tree?.files.length ?? 0;

  return (
    <section
      className={`files-panel${dragging ? ' dropping' : ''}`}
      aria-label="Workspace files"
      data-testid="files-panel"
      onDragOver={(e) => {
        if (!sandbox) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="panel-head files-head">
        <span className="panel-title">Workspace</span>
        {tree && (
          <span className="muted panel-count" title={sandbox?.root}>
            {fileCount} file{fileCount === 1 ? '' : 's'}
          </span>
        )}
        <span className="files-toolbar">
          <ToolButton
            label="New file"
            icon="file-plus"
            testId="files-new-file"
            onClick={() => setNaming({ kind: 'file', dir: '' })}
            disabled={!sandbox}
          />
          <ToolButton
            label="New folder"
            icon="folder-plus"
            testId="files-new-folder"
            onClick={() => setNaming({ kind: 'dir', dir: '' })}
            disabled={!sandbox}
          />
          <ToolButton
            label="Upload files"
            icon="upload"
            testId="files-upload"
            onClick={() => fileInput.current?.click()}
            disabled={!sandbox}
          />
          <ToolButton
            label="Upload a folder"
            icon="folder-up"
            testId="files-upload-folder"
            onClick={() => folderInput.current?.click()}
            disabled={!sandbox}
          />
          <ToolButton
            label="Download the project as a zip"
            icon="zip"
            testId="files-zip"
            onClick={() => void downloadZip()}
            disabled={!sandbox || fileCount === 0}
          />
        </span>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="files-upload-input"
          onChange={(e) => {
            const entries = e.target.files ? entriesFromFileList(e.target.files) : [];
            e.target.value = '';
            void upload(entries);
          }}
        />
        <input
          ref={folderInput}
          type="file"
          multiple
          hidden
          data-testid="files-upload-folder-input"
          {...{ webkitdirectory: '' }}
          onChange={(e) => {
            const entries = e.target.files ? entriesFromFileList(e.target.files) : [];
            e.target.value = '';
            void upload(entries);
          }}
        />
      </div>
      {note && (
        <div
          className={`files-note files-note-${note.kind}`}
          role={note.kind === 'error' ? 'alert' : 'status'}
          data-testid="files-note"
          data-kind={note.kind}
        >
          <div>{note.text}</div>
          {note.details && note.details.length > 0 && (
            <ul className="files-note-details">
              {note.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {naming && (
        <NameField
          label={
            naming.kind === 'rename'
              ? `New name for ${visibleName(naming.path)}`
              : naming.kind === 'dir'
                ? 'New folder (a path such as src/lib)'
                : 'New file (a path such as src/util.js)'
          }
          initial={
            naming.kind === 'rename'
              ? naming.path.slice(naming.path.lastIndexOf('/') + 1)
              : naming.dir
                ? `${naming.dir}/`
                : ''
          }
          onCommit={commitName}
          onCancel={() => setNaming(null)}
        />
      )}
      <div className="file-list-wrap">
        {!sandbox && <div className="muted panel-empty">Starting the sandbox…</div>}
        {listError && <div className="panel-error">{listError}</div>}
        {tree && fileCount === 0 && tree.dirs.length === 0 && (
          <div className="muted panel-empty">
            The project is empty. Drop files or folders here, or upload them.
          </div>
        )}
        {root && (fileCount > 0 || (tree?.dirs.length ?? 0) > 0) && (
          <ul className="file-tree" data-testid="file-list" aria-label="Workspace files">
            <DirChildren
              dir={root}
              depth={0}
              collapsed={collapsed}
              selected={selected}
              onToggle={toggle}
              onOpen={open}
              onRename={(path, isDir) => setNaming({ kind: 'rename', path, isDir })}
              onDelete={remove}
              onNewIn={(dir) => setNaming({ kind: 'file', dir })}
            />
          </ul>
        )}
      </div>
      {dragging && (
        <div className="files-drop-hint" aria-hidden="true">
          Drop files or folders to upload them to the project
        </div>
      )}
      {sandbox && selected && (
        <FileViewer
          sandbox={sandbox}
          path={selected}
          viewed={viewed}
          onClose={() => {
            writeOpenFile(null);
            setSelected(null);
            setViewed(null);
          }}
          onSaved={(abs) => {
            onUserEdit?.(abs);
            void load(selected);
          }}
        />
      )}
    </section>
  );
}

/** FilesPanel, re-rendered only when its props change. */
export const FilesPanel = memo(FilesPanelView);
