/**
 * The Tool interface (after Claude Code's): identity, schema, execution, permission, concurrency,
 * prompt/render and gate. Tools are plain objects made with `buildTool`, which fills fail-closed
 * defaults for everything a definition leaves out.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import type { MessageParam } from './messages.ts';
import type { PermissionContext, PermissionResult } from './permissions/types.ts';

export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;

/** A JSON schema of a tool's input, as sent to the API (`input_schema`). */
export interface ToolInputJSONSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** What a card in the UI shows for a tool call. Plain data: tools never import React. */
export interface ToolUseMessage {
  /** Short verb-ish title, e.g. "Read", "Bash". */
  title: string;
  /** The main argument, e.g. a path or a command. */
  subtitle?: string;
  /** How to show the input/result body. */
  body?:
    | { kind: 'none' }
    | { kind: 'text'; text: string }
    /** Markdown the page renders safely (a plan, a question). */
    | { kind: 'markdown'; text: string }
    | { kind: 'code'; code: string; language?: string }
    | { kind: 'terminal'; command: string }
    | { kind: 'diff'; path: string; before: string; after: string };
}

/** What a card shows for a finished call (plain data). */
export type ToolResultView =
  | { kind: 'text'; text: string }
  /** Markdown the page renders safely (links limited to http/https/mailto). */
  | { kind: 'markdown'; text: string }
  | {
      kind: 'terminal';
      stdout: string;
      stderr: string;
      exitCode: number;
      timedOut?: boolean;
      /**
       * A command started in the background (Bash run_in_background): its ID. The session keeps such a
       * view following the command (`tool-view` events): `stdout` is then what it printed (its end).
       */
      backgroundId?: string;
      /** The background command still ran when the view was made. */
      running?: boolean;
      /** Shown instead of the exit code: how a background command stands ("running in the background"). */
      state?: string;
    }
  | { kind: 'diff'; path: string; before: string; after: string }
  | { kind: 'files'; paths: string[]; truncated?: boolean }
  | { kind: 'code'; path?: string; code: string; language?: string };

/**
 * A progress report from a running tool: streamed output (Bash), a status line, or an event of a
 * sub-conversation the tool runs (Agent, a forked Skill), with a one-line summary of it as `text`.
 */
export type ToolProgress =
  | { kind: 'output' | 'status'; text: string }
  | { kind: 'subagent'; text: string; agentId: string; event: QueryEvent };

export interface ToolResult<T> {
  data: T;
  /** Messages to add to the transcript after the tool_result (e.g. attachments). */
  newMessages?: MessageParam[];
  /**
   * Changes the context for later tool calls. Honoured only for tools that are not concurrency-safe,
   * applied in tool_use block order.
   */
  contextModifier?: (ctx: ToolUseContext) => ToolUseContext;
  /** MCP result metadata, passed through. */
  mcpMeta?: Record<string, unknown>;
}

export type InterruptBehavior = 'abort' | 'finish';

// biome-ignore lint/suspicious/noExplicitAny: the default zod type of a tool input must accept any object schema
export type AnyInputSchema = z.ZodType<any, any>;

export interface Tool<Input extends AnyInputSchema = AnyInputSchema, Output = unknown, P = unknown> {
  // identity
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Extra words ToolSearch matches on (not sent to the model). */
  readonly searchHint?: string;
  userFacingName(input?: Partial<z.infer<Input>>): string;

  // schema
  readonly inputSchema: Input;
  /** What the model sees as `input_schema`: from `z.toJSONSchema`, or given as-is by MCP. Its bytes are the cache key. */
  readonly inputJSONSchema: ToolInputJSONSchema;
  /** Checks beyond the schema; returns an error message for the model, or null. */
  validateInput?(input: z.infer<Input>, ctx: ToolUseContext): Promise<string | null> | string | null;

  // execution
  call(
    input: z.infer<Input>,
    ctx: ToolUseContext,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolResult<Output>>;
  /** Results longer than this are spilled to storage (Infinity: never). */
  readonly maxResultSizeChars?: number;
  mapToolResultToToolResultBlockParam(output: Output, toolUseId: string): ToolResultBlockParam;

  // permission
  checkPermissions(input: z.infer<Input>, permCtx: PermissionContext): Promise<PermissionResult>;
  /**
   * What the permission rules match against, made once when the call is prepared (Bash: the shell
   * analysis of its command; file tools: the path). It is handed back to isReadOnly, isDestructive and
   * isConcurrencySafe, so one analysis decides everything.
   */
  preparePermissionMatcher?(input: z.infer<Input>): P | Promise<P>;
  /** `prepared`: what preparePermissionMatcher made of this input (absent: not prepared; fail closed). */
  isReadOnly(input?: z.infer<Input>, prepared?: P): boolean;
  isDestructive(input?: z.infer<Input>, prepared?: P): boolean;

  // concurrency
  isConcurrencySafe(input?: z.infer<Input>, prepared?: P): boolean;
  interruptBehavior(): InterruptBehavior;
  /**
   * An 'abort' tool that answers its abort at once with a result of what it did so far (a command's
   * output): after Esc that result, marked interrupted, is what the model gets (INTERRUPTED_RESULT_GRACE_MS).
   * Others get the synthetic interrupted result the moment Esc is pressed.
   */
  reportsWhenInterrupted?: boolean;

  // prompt / render
  /** One-line summary (UI, ToolSearch). */
  description(): string;
  /** The model-facing description (`prompt.md`); falls back to description(). */
  prompt?(): string;
  renderToolUseMessage?(input: Partial<z.infer<Input>>): ToolUseMessage;
  renderToolResultMessage?(output: Output, input: z.infer<Input>): ToolResultView;
  /** A compact text of the input for classifiers and logs. */
  toAutoClassifierInput?(input: z.infer<Input>): string;

  // gate
  isEnabled?(): boolean;
  /** Sent with defer_loading and found through ToolSearch. */
  readonly shouldDefer?: boolean;
  /** Never deferred, even when MCP. */
  readonly alwaysLoad?: boolean;
  readonly isMcp?: boolean;
  readonly mcpInfo?: { serverName: string; toolName: string };
}

/** A tool whose types are erased, for registries and the loop. */
// biome-ignore lint/suspicious/noExplicitAny: registries hold tools of every input/output type
export type AnyTool = Tool<AnyInputSchema, any, any>;

/** The members a definition must give; everything else has a fail-closed default. */
export type ToolDef<Input extends AnyInputSchema, Output, P = unknown> = Omit<
  Tool<Input, Output, P>,
  | 'inputJSONSchema'
  | 'userFacingName'
  | 'checkPermissions'
  | 'isReadOnly'
  | 'isDestructive'
  | 'isConcurrencySafe'
  | 'interruptBehavior'
  | 'isEnabled'
> &
  Partial<
    Pick<
      Tool<Input, Output, P>,
      | 'inputJSONSchema'
      | 'userFacingName'
      | 'checkPermissions'
      | 'isReadOnly'
      | 'isDestructive'
      | 'isConcurrencySafe'
      | 'interruptBehavior'
      | 'isEnabled'
    >
  >;

/**
 * Makes a Tool from a definition. Defaults fail closed: not read-only, not concurrency-safe, not
 * destructive, enabled, interruptBehavior 'abort', permission passthrough (rules and mode decide,
 * which means ask when nothing allows). `inputJSONSchema` is derived from the zod schema.
 */
export function buildTool<Input extends AnyInputSchema, Output, P = unknown>(
  def: ToolDef<Input, Output, P>,
): Tool<Input, Output, P> {
  return {
    userFacingName: () => def.name,
    checkPermissions: async () => ({ behavior: 'passthrough' }),
    isReadOnly: () => false,
    isDestructive: () => false,
    isConcurrencySafe: () => false,
    interruptBehavior: () => 'abort',
    isEnabled: () => true,
    ...def,
    inputJSONSchema: def.inputJSONSchema ?? zodToInputJSONSchema(def.inputSchema),
  };
}

/** JSON schema of a zod object schema, in the shape the Messages API takes (no `$schema` key). */
export function zodToInputJSONSchema(schema: AnyInputSchema): ToolInputJSONSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type !== 'object') throw new Error('A tool input schema must be a zod object.');
  return json as ToolInputJSONSchema;
}

/** The description sent to the model. */
export function modelDescription(tool: AnyTool): string {
  return tool.prompt ? tool.prompt() : tool.description();
}

/** Finds a tool by name or alias. */
export function findTool(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.aliases?.includes(name));
}

/** A text tool_result block. */
export function textResult(toolUseId: string, text: string, isError = false): ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: text,
    ...(isError ? { is_error: true } : {}),
  };
}

/** Thrown by a tool for an expected failure the model can act on (becomes an is_error result, no stack). */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
