/**
 * The sentence-encoder stage (./sentence-stage.ts) on the real model (the Universal Sentence Encoder lite
 * from its npm package, loaded once in Node) and IndexedDB (fake-indexeddb): tools embedded once and
 * kept by the hash of their text, queries answered with cosines only once every tool has a vector, and
 * ToolSearch through the real tool-call path with the stage: what the model receives, ready, still
 * reading the tools, and failed.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext } from '../../core/context.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../core/tool-execution.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { fakeMcpTool } from '../../testing/mcp-tool.ts';
import { loadNodeEncoder } from '../../testing/use-encoder.ts';
import { toolSearchDoc } from './search.ts';
import type { SemanticStage } from './semantic.ts';
import { createInProcessSemanticStage } from './semantic-stage.ts';
import { sentenceToolText } from './sentence.ts';
import {
  createInProcessSentenceStage,
  createSentenceCore,
  createWorkerSentenceStage,
  idbVectorCache,
  type SentenceEncoder,
  type SentenceStage,
  vectorKey,
} from './sentence-stage.ts';
import { createToolSearchTool } from './tool-search.ts';

const mcp = fakeMcpTool;

const CATALOGUE = [
  mcp('fx', 'exchange_rate', 'Get the exchange rate between two currencies'),
  mcp('weather', 'get_forecast', 'Weather forecast for a city for the next days'),
  mcp('github', 'delete_repository', 'Delete a GitHub repository permanently'),
  mcp('github', 'list_issues', 'List the issues of a GitHub repository'),
  mcp('github', 'create_issue', 'Open a new issue in a GitHub repository'),
  mcp('mail', 'send_email', 'Send an email message to a recipient'),
  mcp('fs', 'read_file', 'Read the complete contents of a file from disk'),
  mcp('fs', 'list_directory', 'List the files and folders in a directory'),
  mcp('calendar', 'list_events', 'List the events in a calendar between two dates'),
];
const WORD_VECTORS = new URL('./vectors/word-vectors.bin', import.meta.url);
const TOOLS = CATALOGUE.map((t) => ({ name: t.name, text: sentenceToolText(toolSearchDoc(t)) }));

let model: SentenceEncoder;
/** The real model, counting the texts it is given. */
function counted() {
  const seen: string[] = [];
  const encoder: SentenceEncoder = {
    embed: (texts) => {
      seen.push(...texts);
      return model.embed(texts);
    },
  };
  return { encoder, seen };
}

beforeAll(async () => {
  model = await loadNodeEncoder();
});

/** Resolves once `stage` has answered a query with cosines (tools all embedded). */
async function untilReady(ask: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = (await ask()) as { cosines?: unknown };
    if (r.cosines) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the stage never became ready');
}

describe('the sentence core', () => {
  it('answers only once every tool has a vector; then the nearest meaning has the highest cosine', async () => {
    const { encoder, seen } = counted();
    const core = createSentenceCore(async () => encoder, undefined, 2);
    expect(await core.answer('c1', 'convert kroner to euro')).toEqual({ unknown: true });
    expect(await core.answer('c1', 'convert kroner to euro', TOOLS)).toEqual({
      pending: { done: 0, total: 9 },
    });
    await untilReady(() => core.answer('c1', 'convert kroner to euro'));
    const reply = await core.answer('c1', 'how many euros are 100 Danish kroner worth');
    if (!('cosines' in reply)) throw new Error(JSON.stringify(reply));
    const best = [...reply.cosines].indexOf(Math.max(...reply.cosines));
    expect(TOOLS[best].name).toBe('mcp__fx__exchange_rate');
    // Each tool text was embedded once, in batches, whatever the number of queries.
    expect(seen.filter((t) => TOOLS.some((x) => x.text === t))).toHaveLength(9);
    expect(core.hub.get()).toMatchObject({ state: 'ready' });
  });

  it('keeps tool vectors in IndexedDB by the hash of their text: the next page embeds only the query', async () => {
    const cache = idbVectorCache(`tool-vectors-test-${Math.random()}`);
    const first = counted();
    const a = createSentenceCore(async () => first.encoder, cache);
    a.prepare('k', TOOLS);
    await untilReady(() => a.answer('k', 'send a message'));
    await new Promise((r) => setTimeout(r, 50)); // the last batch's write
    const stored = await cache.getMany(TOOLS.map((t) => vectorKey(t.text)));
    expect(stored.every((v) => v instanceof Float32Array && v.length === 512)).toBe(true);

    const second = counted();
    const b = createSentenceCore(async () => second.encoder, cache);
    b.prepare('k2', TOOLS);
    await untilReady(() => b.answer('k2', 'send a message'));
    expect(second.seen).toEqual(['send a message']);
  });

  it('a model that fails to load or to embed leaves the stage failed, with the reason', async () => {
    const broken = createSentenceCore(async () => {
      throw new Error('HTTP 404 for /assets/group1-shard1of7');
    });
    broken.prepare('k', TOOLS);
    await broken.start();
    expect(await broken.answer('k', 'anything')).toEqual({
      failed: 'the sentence encoder did not load (HTTP 404 for /assets/group1-shard1of7)',
    });
    const failing = createSentenceCore(async () => ({
      embed: async () => {
        throw new Error('out of memory');
      },
    }));
    failing.prepare('k', TOOLS);
    for (let i = 0; i < 20 && failing.hub.get().state !== 'failed'; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(failing.hub.get()).toEqual({
      state: 'failed',
      reason: 'the sentence encoder failed on a tool (out of memory)',
    });
  });
});

describe('ToolSearch with the sentence encoder, through the tool-call path', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await createJustBashSandbox({ files: {} });
  });
  afterEach(() => sandbox.dispose());

  /** The word table's stage, as the page has it beside the sentence encoder. */
  const wordStage = () =>
    createInProcessSemanticStage(async () => new Uint8Array(readFileSync(WORD_VECTORS)));

  async function search(
    stage: SentenceStage | null,
    query: string,
    semantic: SemanticStage | null = null,
    sentenceEnabled?: () => boolean,
  ) {
    const tool = createToolSearchTool({
      semantic,
      sentence: stage,
      ...(sentenceEnabled ? { sentenceEnabled } : {}),
    });
    const pool = [tool, ...CATALOGUE];
    const ctx = createToolUseContext({ sandbox, options: { tools: pool } });
    const call = await prepareCall(
      { type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: { query } },
      pool,
    );
    let card = '';
    const out = await runToolCall(call, ctx, {
      tools: pool,
      canUseTool: defaultCanUseTool,
      emit: (e) => {
        if (e.type === 'tool-result' && e.view?.kind === 'text') card = e.view.text;
      },
    });
    // The card the user sees ends with how the semantic and sentence stages took part.
    const note = /\nSemantic stage: (.*)$/.exec(card)?.[1];
    const names = Array.isArray(out.block.content)
      ? out.block.content.map((b) => (b as { tool_name?: string }).tool_name)
      : [];
    return { block: out.block, names, note };
  }

  it('while the encoder reads the tools the word ranking answers; once read, meaning puts the right tool first', async () => {
    const stage = createInProcessSentenceStage(async () => model);
    const words = wordStage();
    const query = 'how many euros are 100 Danish kroner worth';
    // The word ranking alone puts the forecast first (a word of the query expands towards it).
    const early = await search(stage, query, words);
    expect(early.names[0]).toBe('mcp__weather__get_forecast');
    expect(early.names).toContain('mcp__fx__exchange_rate');
    expect(early.note).toMatch(
      /; sentence encoder not used: the sentence encoder is still reading the tools \(0 of 9\)$/,
    );
    await untilReady(async () => ({
      cosines: (await search(stage, query, words)).note?.endsWith('encoder used'),
    }));
    const ready = await search(stage, query, words);
    expect(ready.names[0]).toBe('mcp__fx__exchange_rate');
    expect(ready.note).toMatch(/^used for: .*; sentence encoder used$/);
  });

  it('a word match stays first, and a query of nonsense or another script is still a clear no-match', async () => {
    const stage = createInProcessSentenceStage(async () => model);
    stage.prepare('warm', TOOLS);
    const mailQuery = 'send an email to Bob about the meeting';
    await untilReady(async () => ({
      cosines: (await search(stage, mailQuery)).note?.endsWith('encoder used'),
    }));
    expect((await search(stage, mailQuery)).names[0]).toBe('mcp__mail__send_email');
    // Nothing is near a query that means nothing, however high its best cosine: no tool joins by meaning alone.
    for (const query of ['qzxv wplk brrt', 'погода завтра в москве', '明天的天气怎么样']) {
      const none = await search(stage, query, wordStage());
      expect(String(none.block.content)).toMatch(/^No deferred tools match/);
    }
  });

  it('turned off in Settings: the encoder is never loaded nor asked, the card says so; turned on, it is used', async () => {
    let loads = 0;
    const { encoder, seen } = counted();
    const stage = createInProcessSentenceStage(async () => {
      loads++;
      return encoder;
    });
    let enabled = false;
    const query = 'how many euros are 100 Danish kroner worth';
    const off = await search(stage, query, wordStage(), () => enabled);
    expect(off.names[0]).toBe('mcp__weather__get_forecast');
    expect(off.note).toMatch(/; sentence encoder off \(Settings\)$/);
    await new Promise((r) => setTimeout(r, 50));
    expect(loads).toBe(0);
    expect(seen).toEqual([]);
    expect(stage.status().state).toBe('idle');
    // Turned on: the next searches load it, and once the tools are read meaning takes part.
    enabled = true;
    await untilReady(async () => ({
      cosines: (await search(stage, query, wordStage(), () => enabled)).note?.endsWith('encoder used'),
    }));
    expect(loads).toBe(1);
    expect((await search(stage, query, wordStage(), () => enabled)).names[0]).toBe('mcp__fx__exchange_rate');
  });

  it('an encoder that fails to load: the word ranking, and the card says why', async () => {
    const stage = createInProcessSentenceStage(async () => {
      throw new Error('HTTP 404 for /assets/model.json');
    });
    stage.warm();
    await new Promise((r) => setTimeout(r, 0));
    const out = await search(stage, 'weather forecast for Paris');
    expect(out.names).toEqual(['mcp__weather__get_forecast']);
    expect(out.note).toBe(
      'off (no semantic stage here); sentence encoder not used: the sentence encoder did not load (HTTP 404 for /assets/model.json)',
    );
  });

  it('a worker stage whose worker cannot start is failed, and ToolSearch stays lexical', async () => {
    const stage = createWorkerSentenceStage(() => {
      throw new Error('Workers are blocked by the page');
    });
    const out = await search(stage, 'weather forecast for Paris');
    expect(out.names).toEqual(['mcp__weather__get_forecast']);
    expect(stage.status()).toEqual({
      state: 'failed',
      reason: 'its worker did not start (Workers are blocked by the page)',
    });
  });
});
