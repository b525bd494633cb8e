/**
 * Small real tools for loop and scheduling tests (they run real code: timers, the sandbox, context).
 * Not mocks of our own code: each is a genuine Tool built with buildTool.
 */
import { z } from 'zod';
import type { ToolUseContext } from './context.ts';
import { buildTool, textResult } from './tool.ts';

/** Sleeps `ms` (abortable), records start/end times in `log`. */
export function makeSleepTool(
  name: string,
  opts: { safe: boolean; behavior?: 'abort' | 'finish'; log?: string[] },
) {
  return buildTool({
    name,
    inputSchema: z.strictObject({ ms: z.number().int().min(0), tag: z.string().optional() }),
    description: () => `Sleeps for ms milliseconds (${name})`,
    isConcurrencySafe: () => opts.safe,
    isReadOnly: () => opts.safe,
    interruptBehavior: () => opts.behavior ?? 'abort',
    checkPermissions: async () => ({ behavior: 'allow' }),
    async call(input, ctx: ToolUseContext) {
      const tag = input.tag ?? name;
      opts.log?.push(`start:${tag}`);
      const signal = ctx.abortController.signal;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        };
        const t = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, input.ms);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      opts.log?.push(`end:${tag}`);
      return { data: `slept ${input.ms} (${tag})` };
    },
    mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
  });
}

export const ThrowingTool = buildTool({
  name: 'Explode',
  inputSchema: z.strictObject({}),
  description: () => 'Always throws',
  checkPermissions: async () => ({ behavior: 'allow' }),
  async call(): Promise<never> {
    throw new Error('kaboom');
  },
  mapToolResultToToolResultBlockParam: (_out: never, id) => textResult(id, ''),
});
