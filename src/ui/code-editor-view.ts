/**
 * The CodeMirror 6 editor behind CodeEditor.tsx, in its own chunk (loaded when a file is first edited):
 * line numbers, undo history, bracket matching, indentation on Tab, syntax highlighting for JavaScript
 * and TypeScript (other files as plain text), Ctrl/Cmd+S to save and Esc to leave.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

export interface EditorHandlers {
  onChange(text: string): void;
  onSave(): void;
  onCancel(): void;
}

export interface MountedEditor {
  /** Focuses the editor with the cursor (or selection) at these offsets of the text. */
  focus(selection?: { anchor: number; head: number }): void;
  destroy(): void;
}

export function mountEditor(
  parent: HTMLElement,
  doc: string,
  language: string | undefined,
  label: string,
  handlers: EditorHandlers,
): MountedEditor {
  const lang =
    language === 'javascript' || language === 'typescript'
      ? [javascript({ typescript: language === 'typescript', jsx: true })]
      : [];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        ...lang,
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              handlers.onSave();
              return true;
            },
          },
          {
            key: 'Escape',
            run: () => {
              handlers.onCancel();
              return true;
            },
          },
          indentWithTab,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) handlers.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'file-editor' }),
        // The page's Esc stops the agent; inside the editor it only leaves the editor.
        EditorView.domEventHandlers({
          keydown: (event) => {
            if (event.key === 'Escape') event.stopPropagation();
            return false;
          },
        }),
      ],
    }),
  });
  return {
    focus: (selection) => {
      if (selection) {
        const at = (n: number) => Math.max(0, Math.min(n, view.state.doc.length));
        view.dispatch({ selection: { anchor: at(selection.anchor), head: at(selection.head) } });
      }
      view.focus();
    },
    destroy: () => view.destroy(),
  };
}
