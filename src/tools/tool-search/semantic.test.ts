/**
 * The semantic stage on the word-vector table that ships (./vectors/word-vectors.bin): its format, the
 * expansion of words the catalogue lacks, fusion into the ranking, and laziness.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { buildTool, textResult } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { fakeMcpTool } from '../../testing/mcp-tool.ts';
import { buildSearchIndex, gapWords } from './ranking.ts';
import { decodeWordVectors, encodeWordVectors, nearestWords, vocabularyMatrix } from './semantic.ts';
import { createInProcessSemanticStage, createWorkerSemanticStage } from './semantic-stage.ts';
import { createToolSearchTool, warmToolSearch } from './tool-search.ts';

const TABLE = new URL('./vectors/word-vectors.bin', import.meta.url);
let loads = 0;
const loadTable = async () => {
  loads++;
  return new Uint8Array(readFileSync(TABLE));
};

const mcp = fakeMcpTool;
const CATALOGUE = [
  mcp('music', 'search_songs', 'Search songs and lyrics in the music library'),
  mcp('market', 'stock_quote', 'Get the latest stock price for a ticker'),
  mcp('mail', 'send_email', 'Send an email message'),
  mcp('fs', 'read_file', 'Read a file from disk'),
];

describe('the word-vector table', () => {
  it('round-trips its binary form and refuses a damaged one with a clear error', () => {
    const data = new Int8Array([127, 0, 0, 127]);
    const bytes = encodeWordVectors(['alpha', 'beta'], data, 2);
    const back = decodeWordVectors(bytes);
    expect(back.words).toEqual(['alpha', 'beta']);
    expect([...back.data]).toEqual([127, 0, 0, 127]);
    expect(() => decodeWordVectors(bytes.subarray(0, bytes.length - 1))).toThrow(
      'word-vector table is truncated',
    );
    expect(() => decodeWordVectors(new Uint8Array(24))).toThrow('not a word-vector table (bad magic)');
  });

  it('ships 25,000 words × 100 dims, and finds meaning-neighbours among catalogue words', async () => {
    const vectors = decodeWordVectors(await loadTable());
    expect(vectors.words.length).toBe(25_000);
    expect(vectors.dims).toBe(100);
    const matrix = vocabularyMatrix(vectors, ['song', 'music', 'stock', 'email', 'file', 'nosuchwordhere']);
    expect(matrix.words).toEqual(['song', 'music', 'stock', 'email', 'file']);
    const near = nearestWords(vectors, matrix, ['singer', 'shares', 'qqqzzz']);
    expect(near.get('singer')?.[0].word).toBe('song');
    expect(near.get('shares')?.[0].word).toBe('stock');
    expect(near.has('qqqzzz')).toBe(false);
    for (const list of near.values()) for (const n of list) expect(n.similarity).toBeGreaterThanOrEqual(0.55);
  });
});

describe('the stage in ToolSearch', () => {
  let sandbox: Sandbox;
  let ctx: ToolUseContext;
  beforeEach(async () => {
    sandbox = await createJustBashSandbox({ files: {} });
    loads = 0;
  });
  afterEach(() => sandbox.dispose());

  it('expands only the words the catalogue lacks', () => {
    const index = buildSearchIndex(
      CATALOGUE.map((t) => ({ name: t.name, description: t.description(), params: [] })),
    );
    expect(gapWords(index, 'songs by my favourite singer')).toEqual(['favourite', 'singer']);
    expect(gapWords(index, 'send an email')).toEqual([]);
  });

  it('finds a tool the query shares no word with, which the lexical stage alone cannot', async () => {
    const stage = createInProcessSemanticStage(loadTable);
    const withMeaning = createToolSearchTool({ semantic: stage });
    const lexical = createToolSearchTool({ semantic: null });
    ctx = createToolUseContext({ sandbox, options: { tools: [withMeaning, ...CATALOGUE] } });
    const query = 'how are my shares doing';
    const lex = await lexical.call({ query }, ctx);
    expect(lex.data.matches).toEqual([]);
    const out = await withMeaning.call({ query }, ctx);
    expect(out.data.matches[0]).toBe('mcp__market__stock_quote');
    expect(out.data.semantic).toBe('used for: shares, doing');
    expect(stage.status()).toMatchObject({ state: 'ready', words: 25_000 });
  });

  it('is lazy: nothing loads until the first deferred tool, and the table loads once', async () => {
    const stage = createInProcessSemanticStage(loadTable);
    const tool = createToolSearchTool({ semantic: stage });
    ctx = createToolUseContext({ sandbox, options: { tools: [tool] } });
    await tool.call({ query: 'anything at all' }, ctx);
    expect(stage.status()).toEqual({ state: 'idle' });
    expect(loads).toBe(0);
    ctx = createToolUseContext({ sandbox, options: { tools: [tool, ...CATALOGUE] } });
    await tool.call({ query: 'select:mcp__fs__read_file' }, ctx);
    await tool.call({ query: 'a tune by my favourite singer' }, ctx);
    await tool.call({ query: 'mail my boss' }, ctx);
    expect(loads).toBe(1);
  });

  it('starts when a request first carries a deferred MCP tool, before any search; built-ins alone do not', async () => {
    const stage = createInProcessSemanticStage(loadTable);
    const tool = createToolSearchTool({ semantic: stage });
    const builtIn = buildTool({
      name: 'WebFetch',
      inputSchema: z.looseObject({}),
      description: () => 'Fetch a web page',
      shouldDefer: true,
      call: async () => ({ data: '' }),
      mapToolResultToToolResultBlockParam: (_o: string, id) => textResult(id, ''),
    });
    const onlyBuiltIns = [tool, builtIn];
    expect(warmToolSearch(onlyBuiltIns, stage)).toBe(onlyBuiltIns);
    expect(stage.status()).toEqual({ state: 'idle' });
    const ready = new Promise<void>((resolve) => {
      stage.subscribe((s) => {
        if (s.state === 'ready') resolve();
      });
    });
    warmToolSearch([tool, builtIn, ...CATALOGUE], stage);
    expect(stage.status()).toEqual({ state: 'loading' });
    await ready;
    expect(loads).toBe(1);
    // The first search finds the stage ready and loads nothing more.
    ctx = createToolUseContext({ sandbox, options: { tools: [tool, builtIn, ...CATALOGUE] } });
    const out = await tool.call({ query: 'how are my shares doing' }, ctx);
    expect(out.data.matches[0]).toBe('mcp__market__stock_quote');
    expect(loads).toBe(1);
  });

  it('a worker stage whose worker cannot start is failed, with the reason', async () => {
    const stage = createWorkerSemanticStage(() => {
      throw new Error('Worker is not defined');
    });
    expect(await stage.expand('k', ['song'], ['tune'], 100)).toBeUndefined();
    expect(stage.status()).toEqual({
      state: 'failed',
      reason: 'its worker did not start (Worker is not defined)',
    });
  });
});
