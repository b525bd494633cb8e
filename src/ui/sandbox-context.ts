/**
 * The page's sandbox for components deep in the transcript (a card's diff reads the file it edits), so
 * the sandbox need not pass through every row. Files are reached only through the Sandbox interface.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import type { Sandbox } from '../sandbox/sandbox.ts';

export const SandboxContext = createContext<Sandbox | null>(null);

/** Files larger than this are not read to number a snippet (it is then numbered from 1). */
const MAX_LOOKUP_CHARS = 2_000_000;

/**
 * The line where an Edit's snippet is in its file: where `before` is now (the edit not made yet, e.g.
 * while it waits for permission), else where `after` is (made). 1 while unknown, when the file cannot be
 * read, or when the snippet is not in it. Never throws.
 */
export function useSnippetLine(path: string, before: string, after: string): number {
  const sandbox = useContext(SandboxContext);
  const [line, setLine] = useState(1);
  useEffect(() => {
    if (!sandbox || !path || (before === '' && after === '')) return;
    let live = true;
    void (async () => {
      try {
        const st = await sandbox.stat(path);
        if (st.type !== 'file' || st.size > MAX_LOOKUP_CHARS) return;
        const text = await sandbox.readFile(path);
        const at = snippetIndex(text, before, after);
        if (live && at >= 0) setLine(lineAt(text, at));
      } catch {
        // Unreadable or gone: numbered from 1.
      }
    })();
    return () => {
      live = false;
    };
  }, [sandbox, path, before, after]);
  return line;
}

/**
 * Where an Edit's snippet is in `text`: where `before` is (the call has not run), else where `after` is
 * when it is there once (it ran). -1 when neither tells: `after` found several times (a refused call
 * replacing with "x" matched the first x of the file) says nothing.
 */
export function snippetIndex(text: string, before: string, after: string): number {
  if (before !== '') {
    const at = text.indexOf(before);
    if (at >= 0) return at;
  }
  if (after === '') return -1;
  const at = text.indexOf(after);
  return at >= 0 && text.indexOf(after, at + 1) < 0 ? at : -1;
}

/** The 1-based line of character `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
