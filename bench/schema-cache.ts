/** toolToAPISchema over 1,000 tools: the first build of a session vs every later (cached) turn. */
import { z } from 'zod';
import { createSchemaCache, toolToAPISchema } from '../src/core/api-schema.ts';
import { buildTool, textResult } from '../src/core/tool.ts';
import { median, ms, ratio, table, timeMedian } from './stats.ts';

function makeTools(n: number) {
  return Array.from({ length: n }, (_, i) =>
    buildTool({
      name: `tool_${i}`,
      inputSchema: z.strictObject({
        query: z.string().describe(`Search text for tool ${i}`),
        limit: z.number().int().min(1).max(100).optional().describe('Most results'),
        mode: z.enum(['fast', 'full', `m${i % 7}`]).optional(),
        filters: z.array(z.strictObject({ field: z.string(), value: z.string() })).optional(),
      }),
      description: () => `Tool number ${i}: does thing ${i % 13} over resource ${i % 31}. `.repeat(4),
      call: async () => ({ data: '' }),
      mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
    }),
  );
}

export const title = 'toolToAPISchema over 1,000 tools: first build vs cached, per turn';

export async function run(): Promise<string[]> {
  // A first build sees tools it has never seen (fresh objects, so no memoized hashes).
  const firstTimes: number[] = [];
  for (let i = 0; i < 7; i++) {
    const fresh = makeTools(1000);
    const cache = createSchemaCache();
    const t0 = performance.now();
    for (const t of fresh) toolToAPISchema(t, cache);
    firstTimes.push(performance.now() - t0);
  }
  const first = median(firstTimes.slice(1));
  const tools = makeTools(1000);
  const cache = createSchemaCache();
  for (const t of tools) toolToAPISchema(t, cache);
  const cached = await timeMedian(() => {
    for (const t of tools) toolToAPISchema(t, cache);
  }, 21);
  const bytesFirst = JSON.stringify(tools.map((t) => toolToAPISchema(t, createSchemaCache())));
  const bytesCached = JSON.stringify(tools.map((t) => toolToAPISchema(t, cache)));
  return [
    ...table(
      ['case', 'median per turn', 'vs cached'],
      [
        ['first build (empty cache)', ms(first), ratio(first, cached)],
        ['cached turn', ms(cached), '1.00×'],
      ],
    ),
    `tools JSON: ${bytesCached.length.toLocaleString('en')} bytes; identical across turns: ${bytesFirst === bytesCached}`,
  ];
}
