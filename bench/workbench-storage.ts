/**
 * The page side of the durability benchmark, bundled and run in Chromium (real IndexedDB): a session of
 * 2,000 messages (and its view) is stored, then one transcript change (a new message) and one tool result
 * (into the results of the message in progress) are persisted at a time, as the page does them (diff +
 * one transaction), each timed; the baseline is format 1's write of the whole record per change.
 */
import { createStore, set } from 'idb-keyval';
import { createSessionsStore, diffRecord, listsOf, type SessionRecord } from '../src/agent/sessions-store.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { withToolResult } from '../src/ui/session-model.ts';
import { itemsFromMessages, toStoredView } from '../src/ui/stored-view.ts';

export interface StorageTimes {
  change: number[];
  toolResult: number[];
  wholeRecord: number[];
  itemCount: number;
}

async function run(exported: string, runs: number): Promise<StorageTimes> {
  const { session } = JSON.parse(exported) as { session: SessionRecord };
  const store = createSessionsStore(`tabcode-bench-${Date.now()}`);
  let record: SessionRecord = {
    ...session,
    turnOpen: false,
    view: toStoredView(itemsFromMessages(session.messages)),
  };
  await store.save(record);
  let saved = listsOf(record);
  const persist = async (next: SessionRecord): Promise<number> => {
    const t = performance.now();
    await store.write?.(diffRecord(saved, next));
    const took = performance.now() - t;
    saved = listsOf(next);
    record = next;
    return took;
  };
  const change: number[] = [];
  const toolResult: number[] = [];
  for (let i = 0; i < runs; i++) {
    // One transcript change: the next prompt.
    const prompt: MessageParam = { role: 'user', content: [{ type: 'text', text: `Bench prompt ${i}` }] };
    change.push(await persist({ ...record, messages: [...record.messages, prompt], updatedAt: Date.now() }));
    // A message with two calls, then one tool result as it exists (the message's results partial).
    const a = `toolu_bench_${i}_a`;
    const b = `toolu_bench_${i}_b`;
    const assistant: MessageParam = {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: a, name: 'Read', input: { file_path: '/home/user/project/a.js' } },
        { type: 'tool_use', id: b, name: 'Bash', input: { command: 'npm test' } },
      ],
    };
    await persist({ ...record, messages: [...record.messages, assistant] });
    const result = { type: 'tool_result' as const, tool_use_id: a, content: 'const a = 1;\n'.repeat(40) };
    toolResult.push(await persist({ ...record, messages: withToolResult(record.messages, result) }));
    await persist({
      ...record,
      messages: withToolResult(record.messages, { type: 'tool_result', tool_use_id: b, content: 'ok' }),
    });
  }
  // Baseline: the whole record as one value per change (what format 1 wrote every time).
  const legacy = createStore(`tabcode-bench-legacy-${Date.now()}`, 'records');
  const wholeRecord: number[] = [];
  for (let i = 0; i < runs; i++) {
    const next = {
      ...record,
      messages: [...record.messages, { role: 'user' as const, content: `legacy ${i}` }],
    };
    const t = performance.now();
    await set(`data:${next.id}`, next, legacy);
    wholeRecord.push(performance.now() - t);
    record = next;
  }
  return { change, toolResult, wholeRecord, itemCount: (record.view as { items: unknown[] }).items.length };
}

(globalThis as { tabcodeStorageBench?: typeof run }).tabcodeStorageBench = run;
