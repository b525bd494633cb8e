/**
 * Messages between the page and the sandbox worker, which runs the just-bash sandbox (and starts the
 * node and python3 workers from there). The page side (worker-sandbox.ts) implements the Sandbox
 * interface over these; the worker side (host.ts) serves them from a real just-bash sandbox.
 *
 * Everything is plain data. File contents travel as Uint8Array (transferred). Errors travel as their
 * SandboxError code and message and are rebuilt on the page.
 */
import type { FileChange } from '../../runtimes/shared/protocol.ts';
import type {
  BackgroundProcess,
  ExecOptions,
  ExecResult,
  SandboxChange,
  SandboxEvent,
  SandboxInfo,
} from '../sandbox.ts';

/** The methods the page calls and awaits (their arguments and results are structured-cloneable). */
export type CallMethod =
  | 'readFile'
  | 'readFileBytes'
  | 'writeFile'
  | 'stat'
  | 'readdir'
  | 'mkdir'
  | 'rm'
  | 'rename'
  | 'exists'
  | 'realpath'
  | 'listFiles'
  | 'killBackground';

export interface SessionState {
  name: string;
  cwd: string;
  env: Record<string, string>;
}

export interface InitOptions {
  files: Record<string, string | Uint8Array>;
  root?: string;
  reason?: string;
  maxOutputChars?: number;
  /** Session states to start with (a restarted worker takes over the old one's). */
  sessions?: SessionState[];
  /** The page's storage namespace (core/storage-namespace.ts), for the storage the worker opens. */
  storageNamespace?: string;
}

export type PageToWorker =
  | { type: 'init'; options: InitOptions }
  | { type: 'call'; id: number; method: CallMethod; args: unknown[] }
  | {
      type: 'exec';
      id: number;
      command: string;
      options: Omit<ExecOptions, 'signal' | 'onOutput'>;
      /** Send output as it arrives (the caller gave onOutput). */
      stream: boolean;
    }
  | {
      type: 'background';
      id: number;
      command: string;
      options: Pick<ExecOptions, 'cwd' | 'env' | 'origin' | 'session'>;
    }
  | { type: 'abort'; id: number }
  /** Answered at once with a pong unless a command blocks the worker's thread (how a hang is told). */
  | { type: 'ping'; n: number }
  /** The page started a runtime worker the sandbox asked for; `port` talks to it. */
  | { type: 'spawned'; id: number; port: MessagePort }
  | { type: 'spawn-failed'; id: number; message: string }
  | { type: 'dispose' };

/** Control messages on a spawned runtime's port (beside the runtime's own protocol). */
export type PortControl = { type: '__tabcode_terminate' } | { type: '__tabcode_error'; message: string };

export interface WireError {
  name: string;
  message: string;
  code?: string;
  path?: string;
}

/** One change to the page's backup of the workspace: a file-system change, or bytes added to a file. */
export type BackupChange = FileChange | { op: 'append'; path: string; data: Uint8Array };

export type WorkerToPage =
  | { type: 'ready'; info: SandboxInfo; root: string; sessions: SessionState[] }
  | { type: 'fatal'; message: string }
  | { type: 'pong'; n: number }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'exec-result'; id: number; value: ExecResult; session: SessionState }
  | { type: 'background-started'; id: number; value: BackgroundProcess; session: SessionState }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'output'; id: number; text: string; stream: 'stdout' | 'stderr' }
  | { type: 'change'; change: SandboxChange }
  | { type: 'event'; event: SandboxEvent }
  /** Background output for the page's copy of the table (every origin, internal ones too). */
  | { type: 'bg-output'; procId: string; text: string }
  | { type: 'bg-end'; procId: string; exitCode: number; killed: boolean }
  /** Changes to the workspace for the page's backup (a restarted worker starts from it). */
  | { type: 'backup'; changes: BackupChange[] }
  /**
   * Start a runtime worker that only the page can start (python3: its worker takes its security policy
   * from a frame of the page) and connect it to the sandbox by a port.
   */
  | { type: 'spawn'; id: number; kind: 'python' };
