/**
 * The CodeMirror 6 editor behind CodeEditor.tsx, in its own chunk (loaded when a file is first edited):
 * line numbers, undo history, bracket matching, indentation on Tab, syntax highlighting for JavaScript
 * and TypeScript (other files as plain text), Ctrl/Cmd+S to save and Esc to leave.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

/**
 * The viewer's token colours (styles/highlight.css), light and dark: CodeMirror's default style is for a
 * light page only (its variable and type colours are dark blue on the dark theme's background).
 */
const TOKENS = HighlightStyle.define([
  { tag: [t.comment, t.quote], color: 'light-dark(#676c74, #7d838c)', fontStyle: 'italic' },
  {
    tag: [t.keyword, t.modifier, t.operatorKeyword, t.controlKeyword, t.bool, t.null],
    color: 'light-dark(#a626a4, #c792ea)',
  },
  { tag: [t.string, t.regexp, t.special(t.string)], color: 'light-dark(#2f7d32, #a5d68a)' },
  { tag: [t.number, t.atom], color: 'light-dark(#a05400, #f7a86b)' },
  {
    tag: [t.function(t.variableName), t.function(t.propertyName), t.heading],
    color: 'light-dark(#2f5fb8, #82aaff)',
  },
  { tag: [t.typeName, t.className, t.standard(t.variableName)], color: 'light-dark(#a15c00, #ffcb6b)' },
  { tag: [t.propertyName, t.attributeName, t.tagName], color: 'light-dark(#b3322a, #f07178)' },
  { tag: [t.variableName, t.definition(t.variableName)], color: 'var(--fg)' },
  { tag: [t.meta, t.punctuation, t.operator], color: 'light-dark(#4d5560, #b3b9c2)' },
  { tag: t.invalid, color: 'var(--red)' },
]);

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
        syntaxHighlighting(TOKENS),
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
