/**
 * The Files panel's parts: the tree rows (folders fold; F2 renames, Delete deletes; pointer actions on
 * hover), the inline name field, and the toolbar buttons. Names are shown with control characters
 * spelled out.
 */
import { useState } from 'react';
import { visibleName } from './file-ops.ts';
import type { TreeDir } from './file-tree.ts';
import { Icon } from './icons.tsx';

/** Folders with more entries than this start folded. */
export const LARGE_FOLDER = 200;

export function ToolButton(props: {
  label: string;
  icon: Parameters<typeof Icon>[0]['name'];
  testId: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label={props.label}
      title={props.label}
      data-testid={props.testId}
      onClick={props.onClick}
      disabled={props.disabled}
    >
      <Icon name={props.icon} />
    </button>
  );
}

export function NameField({
  label,
  initial,
  onCommit,
  onCancel,
}: {
  label: string;
  initial: string;
  onCommit: (value: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <form
      className="files-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        onCommit(value);
      }}
    >
      <label className="files-name-label">
        <span>{label}</span>
        <input
          className="files-name-input mono"
          data-testid="files-name-input"
          value={value}
          autoFocus
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
        />
      </label>
      <button type="submit" className="btn btn-small btn-primary" data-testid="files-name-ok">
        OK
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

export interface DirProps {
  dir: TreeDir;
  depth: number;
  collapsed: ReadonlySet<string>;
  selected: string | null;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
  onRename: (path: string, isDir: boolean) => void;
  onDelete: (path: string, isDir: boolean) => void;
  onNewIn: (dir: string) => void;
}

export function DirChildren(props: DirProps) {
  const { dir, depth, collapsed, selected, onToggle, onOpen, onRename, onDelete, onNewIn } = props;
  const pad = { paddingLeft: `${8 + depth * 14}px` };
  return (
    <>
      {dir.dirs.map((d) => {
        // A folder of many entries starts folded (the tree stays quick); a toggle flips its default.
        const isOpen = d.files.length + d.dirs.length <= LARGE_FOLDER !== collapsed.has(d.path);
        return (
          <li key={d.path}>
            <div className="file-row">
              <button
                type="button"
                aria-expanded={isOpen}
                className="file-item file-dir-item"
                style={pad}
                onClick={() => onToggle(d.path)}
                onKeyDown={(e) => {
                  if (e.key === 'F2') onRename(d.path, true);
                  else if (e.key === 'Delete') onDelete(d.path, true);
                }}
                data-testid="dir-item"
                data-path={d.path}
                aria-keyshortcuts="F2 Delete"
              >
                <span className={`chevron ${isOpen ? 'open' : ''}`} aria-hidden="true">
                  ▸
                </span>
                <span className="file-name">{visibleName(d.name)}/</span>
              </button>
              <RowActions
                name={visibleName(d.path)}
                onRename={() => onRename(d.path, true)}
                onDelete={() => onDelete(d.path, true)}
                onNewIn={() => onNewIn(d.path)}
              />
            </div>
            {isOpen && (
              <ul>
                <DirChildren {...props} dir={d} depth={depth + 1} />
              </ul>
            )}
          </li>
        );
      })}
      {dir.files.map((f) => (
        <li key={f.path}>
          <div className="file-row">
            <button
              type="button"
              className={`file-item ${f.path === selected ? 'selected' : ''}`}
              style={pad}
              data-testid="file-item"
              data-path={f.path}
              aria-keyshortcuts="F2 Delete"
              title={visibleName(f.path)}
              onClick={() => onOpen(f.path)}
              onKeyDown={(e) => {
                if (e.key === 'F2') onRename(f.path, false);
                else if (e.key === 'Delete') onDelete(f.path, false);
              }}
            >
              <span className="file-icon" aria-hidden="true" />
              <span className="file-name">{visibleName(f.name)}</span>
            </button>
            <RowActions
              name={visibleName(f.path)}
              onRename={() => onRename(f.path, false)}
              onDelete={() => onDelete(f.path, false)}
            />
          </div>
        </li>
      ))}
    </>
  );
}

function RowActions({
  name,
  onRename,
  onDelete,
  onNewIn,
}: {
  name: string;
  onRename: () => void;
  onDelete: () => void;
  onNewIn?: () => void;
}) {
  // The row's own button takes F2 and Delete, so the actions are for pointers only: one Tab stop per row.
  return (
    <span className="file-actions">
      {onNewIn && (
        <button
          type="button"
          className="icon-btn"
          aria-label={`New file in ${name}`}
          title="New file here"
          onClick={onNewIn}
          data-testid="row-new"
          tabIndex={-1}
        >
          <Icon name="file-plus" />
        </button>
      )}
      <button
        type="button"
        className="icon-btn"
        aria-label={`Rename ${name}`}
        title="Rename (F2)"
        onClick={onRename}
        data-testid="row-rename"
        tabIndex={-1}
      >
        <Icon name="pencil" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label={`Delete ${name}`}
        title="Delete (Del)"
        onClick={onDelete}
        data-testid="row-delete"
        tabIndex={-1}
      >
        <Icon name="trash" />
      </button>
    </span>
  );
}
