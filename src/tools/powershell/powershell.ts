/**
 * A tiny PowerShell tool behind the POWERSHELL feature gate (off in every standard build). It maps a
 * handful of cmdlets onto the sandbox shell; it exists to prove that gated tools leave no trace in a
 * bundle built with the gate off.
 */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';

/** Cmdlet (lower case) → shell command. */
const CMDLETS: Record<string, string> = {
  'get-childitem': 'ls',
  ls: 'ls',
  dir: 'ls',
  'get-content': 'cat',
  cat: 'cat',
  type: 'cat',
  'get-location': 'pwd',
  pwd: 'pwd',
  'set-location': 'cd',
  cd: 'cd',
  'write-output': 'echo',
  echo: 'echo',
};

function quote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** Translates one PowerShell command line; throws ToolInputError for anything unsupported. */
export function translatePowerShell(command: string): string {
  const parts = command.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const first = parts[0];
  if (first === undefined) throw new ToolInputError('Empty command.');
  const shell = CMDLETS[first.toLowerCase()];
  if (!shell) {
    throw new ToolInputError(
      `Unsupported cmdlet: ${first}. Supported: Get-ChildItem, Get-Content, Get-Location, Set-Location, Write-Output.`,
    );
  }
  const args = parts.slice(1).map((a) => quote(a.replace(/^["']|["']$/g, '')));
  return [shell, ...args].join(' ');
}

const inputSchema = z.strictObject({
  command: z.string().describe('The PowerShell command to run (a supported cmdlet and its arguments)'),
});

interface Output {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export const PowerShellTool = buildTool({
  name: 'PowerShell',
  inputSchema,
  description: () => 'Run a PowerShell-style command (a small set of cmdlets) in the sandbox',
  prompt: () => promptText.trim(),
  // The sandbox returns what the command printed so far when it is stopped.
  reportsWhenInterrupted: true,
  async call(input, ctx) {
    const shell = translatePowerShell(input.command);
    const r = await ctx.sandbox.exec(shell, { signal: ctx.abortController.signal, timeoutMs: 60_000 });
    return { data: { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode } satisfies Output };
  },
  mapToolResultToToolResultBlockParam(out: Output, id) {
    const text = [out.stdout, out.stderr, out.exitCode ? `Exit code ${out.exitCode}` : '']
      .filter(Boolean)
      .join('\n');
    return textResult(id, text || '(no output)', out.exitCode !== 0);
  },
  renderToolUseMessage: (input) => ({ title: 'PowerShell', subtitle: input.command, body: { kind: 'none' } }),
  renderToolResultMessage: (out) => ({
    kind: 'terminal',
    stdout: out.stdout,
    stderr: out.stderr,
    exitCode: out.exitCode,
  }),
});
