/**
 * The Files panel's editor: CodeMirror 6, loaded on the first edit (a plain text area until it is in,
 * or if it cannot load). Ctrl/Cmd+S saves, Esc leaves; Tab indents (Esc, then Tab, moves on).
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { MountedEditor } from './code-editor-view.ts';

let loading: Promise<typeof import('./code-editor-view.ts')> | undefined;

export function CodeEditor({
  value,
  language,
  label,
  onChange,
  onSave,
  onCancel,
}: {
  /** The text when the editor opens (later changes come from the user, through onChange). */
  value: string;
  language: string | undefined;
  label: string;
  onChange: (text: string) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onChange, onSave, onCancel });
  handlers.current = { onChange, onSave, onCancel };
  const [ready, setReady] = useState(false);
  // The latest text (typed into the text area while CodeMirror loads, too): what CodeMirror opens with.
  const latest = useRef(value);
  const fallback = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    let editor: MountedEditor | undefined;
    let cancelled = false;
    loading ??= import('./code-editor-view.ts');
    loading.then(
      (mod) => {
        if (cancelled || !host.current) return;
        // Where the user was in the text area (typing there while this loaded): the editor goes on there.
        const area = fallback.current;
        const hadFocus = area !== null && document.activeElement === area;
        const selection = area
          ? { anchor: area.selectionStart, head: area.selectionEnd }
          : { anchor: 0, head: 0 };
        editor = mod.mountEditor(host.current, latest.current, language, label, {
          onChange: (t) => {
            latest.current = t;
            handlers.current.onChange(t);
          },
          onSave: () => handlers.current.onSave(),
          onCancel: () => handlers.current.onCancel(),
        });
        // Shown in this same task, before another key can reach the text area that goes away, then focused
        // (a hidden editor cannot take focus: the keys went to the page).
        flushSync(() => setReady(true));
        if (hadFocus || area === null) editor.focus(selection);
      },
      () => {
        // The chunk could not load: the text area stays (and the next edit tries again).
        loading = undefined;
      },
    );
    return () => {
      cancelled = true;
      editor?.destroy();
    };
  }, [language, label]);

  useEffect(() => {
    if (!ready) fallback.current?.focus();
  }, [ready]);

  const onFallbackKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      onSave();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="code-editor" data-editor={ready ? 'codemirror' : 'textarea'}>
      <div ref={host} className="code-editor-host" hidden={!ready} />
      {!ready && (
        <textarea
          ref={fallback}
          className="file-editor mono"
          data-testid="file-editor"
          aria-label={label}
          spellCheck={false}
          defaultValue={value}
          onChange={(e) => {
            latest.current = e.target.value;
            onChange(e.target.value);
          }}
          onKeyDown={onFallbackKey}
        />
      )}
    </div>
  );
}
