/**
 * One file of the workspace: shown with syntax highlighting and line numbers, edited by hand (Edit, then
 * Save or Ctrl+S; Esc cancels), downloaded. A save writes through the Sandbox interface and tells the
 * agent (`onSaved`), so the model learns the file changed and Edit/Write's "changed since read" check
 * sees it. The editor is CodeMirror 6, loaded on the first edit (CodeEditor.tsx).
 */
import { useEffect, useMemo, useState } from 'react';
import { messageOf } from '../core/errors.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { CodeEditor } from './CodeEditor.tsx';
import { CopyButton } from './CopyButton.tsx';
import { downloadBlob } from './download.ts';
import { readEditorDraft, writeEditorDraft } from './editor-drafts.ts';
import { visibleName } from './file-ops.ts';
import { HighlightedCode } from './HighlightedCode.tsx';
import { Icon } from './icons.tsx';
import { languageOfPath } from './language.ts';

/** Longest file the viewer shows, and the editor opens, in full (characters). */
export const VIEWER_MAX_CHARS = 200_000;

export type Viewed =
  | { path: string; content: string; binary: boolean; error?: undefined }
  | { path: string; error: string };

export function FileViewer({
  sandbox,
  path,
  viewed,
  onClose,
  onSaved,
}: {
  sandbox: Sandbox;
  /** Relative to the workspace root. */
  path: string;
  viewed: Viewed | null;
  onClose: () => void;
  /** After a hand edit is written (absolute path). */
  onSaved: (absPath: string) => void;
}) {
  const content = viewed && viewed.error === undefined ? viewed.content : '';
  const [draft, setDraft] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** The editor opened on text typed before a reload (or before another file was opened), not saved. */
  const [restored, setRestored] = useState(false);
  const tooLarge = content.length > VIEWER_MAX_CHARS;
  const editable = viewed?.error === undefined && viewed !== null && !viewed.binary && !tooLarge;
  // A file past the cap shows its first VIEWER_MAX_CHARS characters, highlighted, then a note.
  const head = tooLarge ? content.slice(0, VIEWER_MAX_CHARS) : content;
  const note = tooLarge ? `\n… (${content.length - VIEWER_MAX_CHARS} more characters)` : '';
  const shown = `${head}${note}`;
  const lines = useMemo(() => {
    const n = shown === '' ? 1 : shown.split('\n').length - (shown.endsWith('\n') ? 1 : 0);
    return Array.from({ length: Math.max(1, n) }, (_, i) => i + 1).join('\n');
  }, [shown]);

  // Another file: not editing it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per file
  useEffect(() => {
    setDraft(null);
    setSaveError(null);
    setRestored(false);
  }, [path]);

  const abs = `${sandbox.root}/${path}`;
  // Unsaved text of this file kept across a reload: the editor opens on it again.
  useEffect(() => {
    if (!editable) return;
    const kept = readEditorDraft(abs);
    if (kept === undefined) return;
    setDraft((d) => d ?? kept);
    setRestored(true);
  }, [abs, editable]);
  const edit = (text: string) => {
    setDraft(text);
    writeEditorDraft(abs, text);
  };
  const save = async () => {
    if (draft === null) return;
    setSaving(true);
    try {
      await sandbox.writeFile(abs, draft);
      writeEditorDraft(abs, null);
      setDraft(null);
      setRestored(false);
      setSaveError(null);
      onSaved(abs);
    } catch (err) {
      setSaveError(`Not saved: ${messageOf(err)}`);
    } finally {
      setSaving(false);
    }
  };

  const cancel = () => {
    writeEditorDraft(abs, null);
    setDraft(null);
    setRestored(false);
    setSaveError(null);
  };

  const download = async () => {
    try {
      const bytes = await sandbox.readFileBytes(abs);
      downloadBlob(path.slice(path.lastIndexOf('/') + 1), new Blob([bytes as BlobPart]));
    } catch (err) {
      setSaveError(`Could not download: ${messageOf(err)}`);
    }
  };

  return (
    <section
      className="file-viewer"
      data-testid="file-viewer"
      data-path={path}
      aria-label={`File ${visibleName(path)}`}
    >
      <div className="panel-head">
        <span className="panel-title mono" title={visibleName(path)}>
          {visibleName(path)}
        </span>
        {draft === null ? (
          <>
            {editable && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setDraft(content)}
                data-testid="file-edit"
                title="Edit this file by hand"
              >
                <Icon name="pencil" /> Edit
              </button>
            )}
            {content && <CopyButton text={content} testId="copy-file" />}
            {viewed?.error === undefined && (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Download ${visibleName(path)}`}
                title="Download"
                onClick={() => void download()}
                data-testid="file-download"
              >
                <Icon name="download" />
              </button>
            )}
          </>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => void save()}
              disabled={saving}
              data-testid="file-save"
              title="Save (Ctrl+S)"
            >
              Save
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={cancel}
              data-testid="file-cancel"
              title="Cancel (Esc)"
            >
              Cancel
            </button>
          </>
        )}
        <button
          type="button"
          className="icon-btn"
          aria-label="Close file"
          title="Close"
          data-testid="file-close"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      {restored && draft !== null && (
        <div className="panel-note muted" data-testid="file-draft-restored">
          Unsaved edits kept from before: Save writes them, Cancel drops them.
        </div>
      )}
      {saveError && (
        <div className="panel-error" role="alert" data-testid="file-save-error">
          {saveError}
        </div>
      )}
      {viewed?.error !== undefined ? (
        <div className="panel-error">{viewed.error}</div>
      ) : draft !== null ? (
        <CodeEditor
          value={draft}
          language={languageOfPath(path)}
          label={`Editing ${visibleName(path)}`}
          onChange={edit}
          onSave={() => void save()}
          onCancel={cancel}
        />
      ) : viewed?.binary ? (
        <div className="panel-empty muted">
          A binary file ({content.length} bytes): it can be downloaded, not shown.
        </div>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
        <div className="file-scroll" tabIndex={0}>
          <pre className="file-gutter" aria-hidden="true">
            {lines}
          </pre>
          <pre className="file-content" data-testid="file-content">
            <HighlightedCode code={head} language={languageOfPath(path)} />
            {/* Its own line (the code is laid out in blocks of lines): the note's line feed is the block. */}
            {note && <span className="muted file-more">{note.slice(1)}</span>}
          </pre>
        </div>
      )}
    </section>
  );
}
