/**
 * LSP (behind the compile-time gate `__FEATURE_LSP__`; marker: tabcode LSP gate): the TypeScript
 * language service in a worker over the sandbox's files, giving diagnostics, definitions, references,
 * hover text and a file's symbols (the worker's name carries the gate's marker). `withDiagnostics` makes Edit, Write and NotebookEdit results carry
 * the changed file's new diagnostics, as the best agents do. The registry imports this file only inside
 * its gate branch; TypeScript itself loads in the worker on the first request.
 */
import { z } from 'zod';
import type { ToolUseContext } from '../../core/context.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import {
  type AnyTool,
  buildTool,
  ToolInputError,
  type ToolResultBlockParam,
  textResult,
} from '../../core/tool.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { resolveFilePath } from '../shared/file-state.ts';
import type { LspOperation } from './language-service.ts';
import { createWorkerConnection, isSourceFile, type LspConnection, WorkspaceMirror } from './lsp-client.ts';
import promptText from './prompt.md?raw';

/** An LSP request that takes longer fails (the first one loads TypeScript). */
export const LSP_TIMEOUT_MS = 60_000;
/** How long an edit waits for its file's diagnostics before it returns without them. */
export const LSP_EDIT_DIAGNOSTICS_WAIT_MS = 20_000;
/**
 * The wait of an edit before the sandbox's language service has answered once: that first request loads
 * TypeScript in the worker (about 30 s in Chromium on a busy 2-core machine), so the shorter wait would
 * drop the first edit's diagnostics every time.
 */
export const LSP_FIRST_DIAGNOSTICS_WAIT_MS = LSP_TIMEOUT_MS;

const OPERATIONS = ['goToDefinition', 'findReferences', 'hover', 'documentSymbol', 'diagnostics'] as const;

const inputSchema = z.strictObject({
  operation: z.enum(OPERATIONS).describe('The language-service operation to perform'),
  filePath: z.string().describe('The absolute path to the file'),
  line: z.number().int().min(1).describe('The line number (1-based, as Read shows it)'),
  character: z.number().int().min(1).describe('The character offset on the line (1-based)'),
});

export type LspInput = z.infer<typeof inputSchema>;

export interface LspOutput {
  operation: LspOperation;
  filePath: string;
  result: string;
}

/** How a session's sandbox reaches a language service (tests connect in-process). */
export type LspConnector = (sandbox: Sandbox) => LspConnection;

const mirrors = new WeakMap<Sandbox, WorkspaceMirror>();
const connections = new WeakMap<Sandbox, LspConnection>();
/** Sandboxes whose language service has answered at least once (TypeScript is loaded). */
const answered = new WeakSet<Sandbox>();
let connector: LspConnector = () => createWorkerConnection();

/** Replaces how language services are reached (tests). */
export function setLspConnector(next: LspConnector): void {
  connector = next;
}

function mirrorOf(sandbox: Sandbox): { mirror: WorkspaceMirror; connection: LspConnection } {
  let connection = connections.get(sandbox);
  let mirror = mirrors.get(sandbox);
  if (!connection || !mirror) {
    connection = connector(sandbox);
    mirror = new WorkspaceMirror(sandbox, connection);
    connections.set(sandbox, connection);
    mirrors.set(sandbox, mirror);
  }
  return { mirror, connection };
}

/** Rejects after `ms` with a message, or with the abort. */
function limited<T>(work: Promise<T>, ms: number, signal: AbortSignal, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ToolInputError(`${what} took longer than ${ms / 1000} s.`)),
      ms,
    );
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}

/** Runs one request on the sandbox's language service, files synced first. */
export async function runLsp(
  ctx: ToolUseContext,
  operation: LspOperation,
  filePath: string,
  line = 1,
  character = 1,
  timeoutMs = LSP_TIMEOUT_MS,
): Promise<string> {
  const { mirror, connection } = mirrorOf(ctx.sandbox);
  const signal = ctx.abortController.signal;
  const work = (async () => {
    await mirror.refresh(signal);
    const result = await connection.run({ operation, filePath, line, character });
    answered.add(ctx.sandbox);
    return result;
  })();
  work.catch(() => {});
  return limited(work, timeoutMs, signal, 'The language service');
}

export const LspTool = buildTool<typeof inputSchema, LspOutput, FilePermissionMatcher>({
  name: 'LSP',
  searchHint: 'typescript language server diagnostics definition references hover symbols types errors',
  inputSchema,
  description: () => 'TypeScript language service: diagnostics, definitions, references, hover, symbols',
  prompt: () => promptText.trim(),

  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  preparePermissionMatcher: (input) => ({ kind: 'file', access: 'read', path: input.filePath }),
  checkPermissions: async () => ({ behavior: 'allow' }),
  validateInput: (input, ctx) => {
    const resolved = resolveFilePath(ctx, input.filePath);
    if (!resolved.ok) return resolved.error;
    return isSourceFile(resolved.path)
      ? null
      : `${input.filePath} is not a TypeScript or JavaScript file of the workspace (.ts, .tsx, .js, .jsx, .mts, .cts).`;
  },

  async call(input, ctx) {
    const resolved = resolveFilePath(ctx, input.filePath);
    if (!resolved.ok) throw new ToolInputError(resolved.error);
    const result = await runLsp(ctx, input.operation, resolved.path, input.line, input.character);
    return { data: { operation: input.operation, filePath: resolved.path, result } };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId) => textResult(toolUseId, output.result),
  renderToolUseMessage: (input) => ({
    title: 'LSP',
    subtitle: input.operation
      ? `${input.operation} ${input.filePath ?? ''}${input.operation !== 'diagnostics' && input.operation !== 'documentSymbol' && input.line ? `:${input.line}:${input.character ?? 1}` : ''}`
      : undefined,
    body: { kind: 'none' },
  }),
  renderToolResultMessage: (output) => ({ kind: 'text', text: output.result }),
  toAutoClassifierInput: (input) => `${input.operation} ${input.filePath}:${input.line}:${input.character}`,
});

/** The path a file-changing call wrote, when it is a source file. */
function writtenSource(input: unknown): string | undefined {
  const i = input as { file_path?: unknown; notebook_path?: unknown };
  const path = typeof i?.file_path === 'string' ? i.file_path : undefined;
  return path && isSourceFile(path) ? path : undefined;
}

interface WithDiagnostics {
  inner: unknown;
  diagnostics?: string;
}

/**
 * `tool` whose successful calls on a TypeScript or JavaScript file also report the file's diagnostics
 * (appended to what the model reads, as `<new-diagnostics>`). Diagnostics that do not arrive within
 * LSP_EDIT_DIAGNOSTICS_WAIT_MS (LSP_FIRST_DIAGNOSTICS_WAIT_MS while TypeScript is still loading) are left
 * out; the edit itself never fails because of them.
 */
export function withDiagnostics(tool: AnyTool): AnyTool {
  return {
    ...tool,
    async call(input, ctx, onProgress) {
      const result = await tool.call(input, ctx, onProgress);
      const path = writtenSource(input);
      if (!path) return { ...result, data: { inner: result.data } satisfies WithDiagnostics };
      const resolved = resolveFilePath(ctx, path);
      let diagnostics: string | undefined;
      if (resolved.ok) {
        try {
          const wait = answered.has(ctx.sandbox)
            ? LSP_EDIT_DIAGNOSTICS_WAIT_MS
            : LSP_FIRST_DIAGNOSTICS_WAIT_MS;
          diagnostics = await runLsp(ctx, 'diagnostics', resolved.path, 1, 1, wait);
        } catch (err) {
          if (ctx.abortController.signal.aborted) throw err;
          diagnostics = undefined;
        }
      }
      return { ...result, data: { inner: result.data, diagnostics } satisfies WithDiagnostics };
    },
    mapToolResultToToolResultBlockParam(output: WithDiagnostics, toolUseId): ToolResultBlockParam {
      const block = tool.mapToolResultToToolResultBlockParam(output.inner, toolUseId);
      if (!output.diagnostics || typeof block.content !== 'string') return block;
      return {
        ...block,
        content: `${block.content}\n\n<new-diagnostics>\n${output.diagnostics}\n</new-diagnostics>`,
      };
    },
    ...(tool.renderToolResultMessage
      ? {
          renderToolResultMessage: (output: WithDiagnostics, input: unknown) =>
            tool.renderToolResultMessage?.(output.inner, input) as never,
        }
      : {}),
  };
}
