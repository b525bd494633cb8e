/** Permission types shared by tools, the loop and the UI. The evaluation engine lives beside this file. */

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
  'dontAsk',
];

/** What a tool's own `checkPermissions` (or the whole evaluation) decided. */
export type PermissionResult =
  | { behavior: 'allow'; updatedInput?: unknown; reason?: string }
  | { behavior: 'deny'; message: string; reason?: string }
  | { behavior: 'ask'; message: string; reason?: string; suggestedRule?: string }
  /** The tool has no opinion: rules and mode decide. */
  | { behavior: 'passthrough'; message?: string };

/** What a tool sees when it checks its own permissions. */
export interface PermissionContext {
  mode: PermissionMode;
  /** Workspace root and the current directory, for path checks. */
  root: string;
  cwd: string;
}
