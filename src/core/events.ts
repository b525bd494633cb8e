/**
 * The loop's event union (noun-verb names). The UI and the embed API subscribe to these; nothing else
 * crosses from the loop to the page.
 */
import type { HookReport } from './hooks/types.ts';
import type { MessageParam, ToolResultBlockParam, Usage } from './messages.ts';
import type { PermissionMode, PermissionResult } from './permissions/types.ts';
import type { ToolResultView, ToolUseMessage } from './tool.ts';

export type QueryEvent =
  /** A model request is about to be sent (turn counts from 1 within one user prompt). */
  | { type: 'request-start'; turn: number }
  | { type: 'message-start'; messageId: string; model: string }
  | { type: 'text-delta'; index: number; text: string }
  /** An extended-thinking block began (`redacted`: its content is encrypted and never shown). */
  | { type: 'thinking-start'; index: number; redacted: boolean }
  | { type: 'thinking-delta'; index: number; text: string }
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
      /**
       * How the call itself is shown, when it never ran (refused by validation, a hook or the user) but
       * its input fit the tool: its card is named as a running call's would be (tool-run-start's view).
       */
      callView?: ToolUseMessage;
      /** 'interrupted' when the user stopped it. */
      status: 'done' | 'error' | 'interrupted';
      durationMs: number;
    }
  /**
   * A finished call's card shows something new: a background command's output and state (sent by the
   * session, not the loop; the model's result is unchanged).
   */
  | { type: 'tool-view'; toolUseId: string; view: ToolResultView }
  /** The loop waits for the user to allow or deny a call; answer through the `respond` callback. */
  | {
      type: 'permission-request';
      toolUseId: string;
      name: string;
      input: unknown;
      view: ToolUseMessage;
      message: string;
      suggestedRule?: string;
      /** The tool says the call may delete or overwrite something (its isDestructive). */
      destructive?: boolean;
      /** Set for a sub-agent's call: which agent asks (e.g. `Explore: find the tests`). */
      agentLabel?: string;
      respond: (answer: PermissionAnswer) => void;
    }
  /**
   * An event of a sub-conversation a tool runs (Agent, a forked Skill): `toolUseId` is the parent's
   * call, `agentId` the sub-agent's. Its permission requests come this way too, answered the same.
   */
  | { type: 'subagent-event'; toolUseId: string; agentId: string; event: QueryEvent }
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
        /** The same failing tool call repeated MAX_REPEATED_TOOL_FAILURES times (see `loop-guard`). */
        | 'repeated_failure'
        | 'other';
    }
  /** The turn is stopped because one failing call keeps coming back (the loop guard). */
  | { type: 'loop-guard'; toolName: string; count: number; error: string }
  /**
   * Old tool results were cleared to free context (the transcript is now `messages`; the cleared results
   * say so to the model).
   */
  | {
      type: 'context-cleared';
      cleared: number;
      tokensBefore: number;
      tokensAfter: number;
      messages: MessageParam[];
    }
  /** The conversation is being summarized ('auto': near the window; 'overflow': the API said too long). */
  | { type: 'compaction-start'; trigger: CompactionTrigger; tokensBefore: number }
  /** The conversation was summarized: the transcript is now `messages` (summary first, then the tail). */
  | {
      type: 'compaction-end';
      trigger: CompactionTrigger;
      summary: string;
      /** Messages the summary replaced. */
      summarized: number;
      tokensBefore: number;
      tokensAfter: number;
      /** The summarization request's usage and model (it is a request like the others). */
      usage: Usage;
      model: string;
      messages: MessageParam[];
    }
  /** Summarizing failed or was interrupted: the transcript is unchanged. */
  | { type: 'compaction-failed'; trigger: CompactionTrigger; error: QueryError }
  /** A hook ran (what it decided, what it printed, or how it failed). */
  | { type: 'hook-result'; report: HookReport }
  /**
   * A failed request will be sent again after `delayMs` (attempt `attempt` of `maxRetries` retries):
   * the page shows the countdown. The SDK's own retries (429/5xx) are announced by the agent session.
   */
  | { type: 'retry-wait'; attempt: number; maxRetries: number; delayMs: number; error: QueryError }
  | { type: 'error'; error: QueryError };

/** Why a compaction ran: the user's /compact, auto (near the window), or the API's "prompt is too long". */
export type CompactionTrigger = 'manual' | 'auto' | 'overflow';

export type PermissionAnswer =
  | {
      decision: 'allow-once';
      /**
       * The input the call runs with instead (checked against the tool's schema again): what the
       * user filled in, e.g. the answers to AskUserQuestion.
       */
      updatedInput?: Record<string, unknown>;
      /** Switch to this permission mode as the call is approved (an approved plan leaves plan mode). */
      mode?: PermissionMode;
    }
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
