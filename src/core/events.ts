/**
 * The loop's event union (noun-verb names). The UI and the embed API subscribe to these; nothing else
 * crosses from the loop to the page.
 */
import type { MessageParam, ToolResultBlockParam, Usage } from './messages.ts';
import type { PermissionResult } from './permissions/types.ts';
import type { ToolResultView, ToolUseMessage } from './tool.ts';

export type QueryEvent =
  /** A model request is about to be sent (turn counts from 1 within one user prompt). */
  | { type: 'request-start'; turn: number }
  | { type: 'message-start'; messageId: string; model: string }
  | { type: 'text-delta'; index: number; text: string }
  /** The model began a tool_use block; its input streams with tool-input-delta. */
  | { type: 'tool-use-start'; index: number; toolUseId: string; name: string }
  | { type: 'tool-input-delta'; toolUseId: string; partialJson: string }
  /** The assistant message is complete (added to the transcript). */
  | { type: 'message-end'; message: MessageParam; stopReason: string | null; usage: Usage }
  /** A tool call passed validation and permission and is running. */
  | { type: 'tool-run-start'; toolUseId: string; name: string; input: unknown; view: ToolUseMessage }
  | { type: 'tool-progress'; toolUseId: string; kind: 'output' | 'status'; text: string }
  | {
      type: 'tool-result';
      toolUseId: string;
      name: string;
      isError: boolean;
      /** What the model sees. */
      block: ToolResultBlockParam;
      /** What the UI shows (absent for errors and unknown tools). */
      view?: ToolResultView;
      /** 'interrupted' when the user stopped it. */
      status: 'done' | 'error' | 'interrupted';
      durationMs: number;
    }
  /** The loop waits for the user to allow or deny a call; answer through the `respond` callback. */
  | {
      type: 'permission-request';
      toolUseId: string;
      name: string;
      input: unknown;
      view: ToolUseMessage;
      message: string;
      suggestedRule?: string;
      respond: (answer: PermissionAnswer) => void;
    }
  /** A user message the loop added (tool results, interrupt marker). */
  | { type: 'user-message'; message: MessageParam }
  | {
      type: 'turn-end';
      reason:
        | 'end_turn'
        | 'max_turns'
        | 'interrupted'
        | 'error'
        | 'stop_sequence'
        | 'max_tokens'
        | 'refusal'
        | 'pause_turn'
        | 'other';
    }
  /**
   * A failed request will be sent again after `delayMs` (attempt `attempt` of `maxRetries` retries):
   * the page shows the countdown. The SDK's own retries (429/5xx) are announced by the agent session.
   */
  | { type: 'retry-wait'; attempt: number; maxRetries: number; delayMs: number; error: QueryError }
  | { type: 'error'; error: QueryError };

export type PermissionAnswer =
  | { decision: 'allow-once' }
  | { decision: 'allow-always'; rule: string }
  | { decision: 'deny'; feedback?: string };

/** An API or loop failure, shaped for a plain message in the page. */
export interface QueryError {
  kind:
    | 'auth'
    | 'rate_limit'
    | 'overloaded'
    | 'server'
    | 'invalid_request'
    | 'network'
    | 'aborted'
    | 'unknown';
  status?: number;
  message: string;
  /** The API's own error type (e.g. invalid_request_error). */
  apiType?: string;
  /** The request failed after its response began streaming (the reply stopped partway). */
  midStream?: boolean;
}

/** Decides whether a call may run (permissions layer). `allow` may rewrite the input. */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  toolUseId: string,
) => Promise<PermissionResult & { feedback?: string }>;
