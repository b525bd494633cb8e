/**
 * Loading and configuring just-bash for the built-in sandbox (just-bash.ts): the module (loaded on
 * first use, so the first paint does not wait for it), the options, and what every shell starts with.
 */
import type { RuntimeWorkers } from '../runtimes/sandbox-commands.ts';
import type { JournalEntry } from './fs-journal.ts';

export type JustBashModule = typeof import('just-bash/browser');
export type Bash = InstanceType<JustBashModule['Bash']>;

export interface JustBashSandboxOptions {
  /** Initial files, relative to the workspace root (or absolute inside it). */
  files?: Record<string, string | Uint8Array>;
  root?: string;
  /** Cap per output stream, characters (the middle of longer output is cut). */
  maxOutputChars?: number;
  /** Why this backend was chosen (shown in the UI). */
  reason?: string;
  /** Workers for `node` (default: the page's Web Workers; in Node there are none unless given). */
  workers?: RuntimeWorkers;
  /** The registry's fetch for `npm install` (default: the page's fetch; null: offline). */
  fetch?: typeof fetch | null;
  /** Gets every change to the workspace with its bytes, as it is made (the sandbox worker's backup). */
  journal?: (entry: JournalEntry) => void;
}

/** Largest total size of the in-memory file system (just-bash's own default). */
export const MAX_FS_BYTES = 1024 ** 3;

let modulePromise: Promise<JustBashModule> | undefined;

/** The just-bash module (imported once). */
export function loadJustBash(): Promise<JustBashModule> {
  modulePromise ??= import('just-bash/browser');
  return modulePromise;
}

/** The variables every shell session starts with. */
export function initialEnv(root: string): Record<string, string> {
  return { HOME: root, USER: 'user', TERM: 'xterm-256color', LANG: 'C.UTF-8' };
}
