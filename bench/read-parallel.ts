/**
 * 10 Read calls in one assistant message, each delayed 50 ms by a sandbox wrapper, run the way the loop
 * schedules them (one concurrent batch) vs forced serial. Goal: parallel ≤ 1.3× one call.
 */
import { createToolUseContext } from '../src/core/context.ts';
import type { ToolUseBlockParam } from '../src/core/messages.ts';
import { runToolCalls } from '../src/core/orchestration.ts';
import { defaultCanUseTool } from '../src/core/tool-execution.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import type { Sandbox } from '../src/sandbox/sandbox.ts';
import { ReadTool } from '../src/tools/read/read.ts';
import { ms, ratio, table, timeMedian } from './stats.ts';

const DELAY_MS = 50;

/** A sandbox whose file reads take DELAY_MS longer (as over a slow backend). */
function delayed(inner: Sandbox): Sandbox {
  const wait = () => new Promise((r) => setTimeout(r, DELAY_MS));
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'readFile' || prop === 'readFileBytes') {
        return async (...args: unknown[]) => {
          await wait();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export const title = '10 Read calls in one message (each +50 ms): parallel batch vs forced serial';

export async function run(): Promise<string[]> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`src/file${i}.ts`] = `export const n${i} = ${i};\n`.repeat(200);
  const sandbox = delayed(await createJustBashSandbox({ files }));
  const blocks: ToolUseBlockParam[] = Array.from({ length: 10 }, (_, i) => ({
    type: 'tool_use',
    id: `toolu_${i}`,
    name: 'Read',
    input: { file_path: `src/file${i}.ts` },
  }));
  const runCalls = async (calls: ToolUseBlockParam[], serial: boolean) => {
    const gen = runToolCalls({
      blocks: calls,
      tools: [ReadTool],
      context: createToolUseContext({ sandbox }),
      canUseTool: defaultCanUseTool,
      serial,
    });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    if (step.value.results.some((r) => r.is_error))
      throw new Error(`Read failed: ${JSON.stringify(step.value.results)}`);
  };
  const one = await timeMedian(() => runCalls(blocks.slice(0, 1), false), 7);
  const parallel = await timeMedian(() => runCalls(blocks, false), 7);
  const serial = await timeMedian(() => runCalls(blocks, true), 5);
  return [
    ...table(
      ['case', 'median', 'vs one call'],
      [
        ['one Read', ms(one), '1.00×'],
        ['10 Reads, one batch (parallel)', ms(parallel), ratio(parallel, one)],
        ['10 Reads, forced serial', ms(serial), ratio(serial, one)],
      ],
    ),
    `parallel ≤ 1.3× one call: ${parallel / one <= 1.3 ? 'yes' : 'NO'}; serial / parallel = ${ratio(serial, parallel)}`,
  ];
}
