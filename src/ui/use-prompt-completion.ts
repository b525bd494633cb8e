/**
 * The prompt box's autocomplete: the slash-command menu (built-ins, project commands, skills, MCP
 * prompts, fuzzy-matched) while a command is typed, and the file picker after `@` (the sandbox's
 * files, fuzzy-matched). Up/Down move, Tab completes, Enter completes a partial name (and sends a
 * complete one), Esc closes. Returns the menu's data and the key handler the prompt box calls first.
 */
import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { SlashCommandInfo } from '../agent/slash/types.ts';
import type { AgentSession } from '../agent/types.ts';
import { relativeTo } from '../sandbox/sandbox.ts';
import { commandMenuItems, completionContext, insertMention, mentionMenuItems } from './prompt-completion.ts';

/** The file list is read again after this long (files come and go). */
const FILES_TTL_MS = 5_000;

export type CompletionMenu =
  | { kind: 'command'; items: SlashCommandInfo[]; active: number }
  | { kind: 'mention'; items: string[]; active: number };

export interface PromptCompletion {
  menu: CompletionMenu | null;
  /** Handles a key for the menu; true when it did (the prompt box then does nothing else). */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Picks row `index` (a click). */
  pick(index: number): void;
  /** The commands known now (for the page's own dispatch and /help). */
  commands: readonly SlashCommandInfo[];
}

export function usePromptCompletion(options: {
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  agent: AgentSession | null;
}): PromptCompletion {
  const { value, onChange, inputRef, agent } = options;
  const [commands, setCommands] = useState<SlashCommandInfo[]>([]);
  const [files, setFiles] = useState<{ at: number; list: string[] } | null>(null);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  // The caret, followed as it moves (typing, clicks, arrow keys), so the menu is about the word at it.
  // Read after React has rendered (a native `input` listener that set state would run before React's
  // own onChange and make the controlled textarea lose the keystroke).
  const [caretAt, setCaretAt] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret is read again whenever the text changes
  useLayoutEffect(() => {
    setCaretAt(inputRef.current?.selectionStart ?? null);
  }, [value, inputRef]);
  useEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    const update = () => setCaretAt(el.selectionStart);
    for (const type of ['keyup', 'click'] as const) el.addEventListener(type, update);
    return () => {
      for (const type of ['keyup', 'click'] as const) el.removeEventListener(type, update);
    };
  }, [inputRef]);
  const caret = caretAt ?? value.length;
  const context = useMemo(() => completionContext(value, Math.min(caret, value.length)), [value, caret]);
  const loadingFiles = useRef(false);

  // The command list: read when a command starts being typed (workspace commands change).
  const typingCommand = context?.kind === 'command';
  useEffect(() => {
    if (!typingCommand || !agent?.listCommands) return;
    let live = true;
    void agent.listCommands().then((list) => live && setCommands(list));
    return () => {
      live = false;
    };
  }, [typingCommand, agent]);
  useEffect(() => {
    if (!agent?.listCommands) return;
    void agent.listCommands().then(setCommands);
  }, [agent]);

  const mentioning = context?.kind === 'mention';
  useEffect(() => {
    if (!mentioning || !agent || loadingFiles.current) return;
    if (files && Date.now() - files.at < FILES_TTL_MS) return;
    loadingFiles.current = true;
    const sandbox = agent.sandbox;
    void sandbox
      .listFiles()
      .then((list) => setFiles({ at: Date.now(), list: list.map((p) => relativeTo(sandbox.root, p)) }))
      .catch(() => setFiles({ at: Date.now(), list: [] }))
      .finally(() => {
        loadingFiles.current = false;
      });
  }, [mentioning, agent, files]);

  const menu = useMemo((): CompletionMenu | null => {
    if (!context || closedFor === value) return null;
    if (context.kind === 'command') {
      const items = commandMenuItems(context.query, commands);
      return items.length ? { kind: 'command', items, active: Math.min(active, items.length - 1) } : null;
    }
    const items = mentionMenuItems(context.query, files?.list ?? []);
    return items.length ? { kind: 'mention', items, active: Math.min(active, items.length - 1) } : null;
  }, [context, commands, files, active, closedFor, value]);

  // A new query starts at the first row.
  const query = context ? `${context.kind}:${context.query}` : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes
  useEffect(() => setActive(0), [query]);

  const apply = useCallback(
    (index: number) => {
      if (!menu || !context) return;
      const el = inputRef.current;
      if (menu.kind === 'command') {
        const next = `/${menu.items[index].name} `;
        onChange(next);
        setClosedFor(next);
        setCaretAt(next.length);
        requestAnimationFrame(() => el?.setSelectionRange(next.length, next.length));
      } else if (context.kind === 'mention') {
        const done = insertMention(value, context.start, context.end, menu.items[index]);
        onChange(done.value);
        setClosedFor(done.value);
        setCaretAt(done.caret);
        requestAnimationFrame(() => el?.setSelectionRange(done.caret, done.caret));
      }
      el?.focus();
    },
    [menu, context, value, onChange, inputRef],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!menu) return false;
    const n = menu.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((menu.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setClosedFor(value);
      return true;
    }
    if (e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      apply(menu.active);
      return true;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      // A command typed out in full is sent as it is; a partial one is completed first.
      if (menu.kind === 'command' && value.trim() === `/${menu.items[menu.active].name}`) return false;
      e.preventDefault();
      apply(menu.active);
      return true;
    }
    return false;
  };

  return { menu, onKeyDown, pick: apply, commands };
}
