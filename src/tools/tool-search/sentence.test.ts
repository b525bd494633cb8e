/**
 * The sentence-encoder mixing (./sentence.ts): the tool text, the score mixing, and the ranking with
 * cosines from the real model (the Universal Sentence Encoder lite from the npm package, loaded once from
 * its own files in Node).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeMcpTool } from '../../testing/mcp-tool.ts';
import { loadNodeEncoder } from '../../testing/use-encoder.ts';
import { rankDeferred, toolSearchDoc } from './search.ts';
import {
  humanizeName,
  mixSentenceScores,
  NO_SENTENCE_GATE,
  SENTENCE_GATE,
  SENTENCE_QUERY_CHARS,
  sentenceToolText,
} from './sentence.ts';

const mcp = fakeMcpTool;

describe('sentence tool text', () => {
  it('puts the name in words before the start of the description', () => {
    expect(humanizeName('get_currentTime')).toBe('get current Time');
    expect(humanizeName('list-pull.requests')).toBe('list pull requests');
    const doc = toolSearchDoc(
      mcp('fx', 'exchange_rate', `Get the  exchange\nrate. ${'x'.repeat(600)}`, ['from_currency']),
    );
    const text = sentenceToolText(doc);
    expect(text.startsWith('exchange rate: Get the exchange rate. x')).toBe(true);
    expect(text.length).toBe('exchange rate: '.length + 400);
    expect(sentenceToolText(doc, 22, true)).toBe(
      'exchange rate: Get the exchange rate. Parameters: from currency.',
    );
  });
});

describe('mixSentenceScores', () => {
  const cosines = new Map([
    ['a', 0.1],
    ['b', 0.3],
    ['c', 0.9],
    ['d', 0.5],
  ]);

  it('adds the weight times the cosine min-max scaled over the catalogue to the lexical score over its best', () => {
    // a: 1 + 0.5 × 0 = 1; b: 0.8 + 0.5 × 0.25 = 0.925; c (no word in common): 0.5 × 1; d: 0.5 × 0.5.
    const lexical = [
      { key: 'a', score: 10 },
      { key: 'b', score: 8 },
    ];
    expect(mixSentenceScores(lexical, cosines, 0.5, NO_SENTENCE_GATE)).toEqual(['a', 'b', 'c', 'd']);
    // The product's gate: only the tools a word matched.
    expect(mixSentenceScores(lexical, cosines, 0.5)).toEqual(['a', 'b']);
    // A heavier weight lets the nearest meaning pass the best word match.
    expect(mixSentenceScores(lexical, cosines, 2, NO_SENTENCE_GATE)).toEqual(['c', 'b', 'a', 'd']);
  });

  it('ranks by cosines alone when nothing matches lexically, and by lexical order when cosines are flat', () => {
    expect(mixSentenceScores([], cosines, 0.5, NO_SENTENCE_GATE)).toEqual(['c', 'd', 'b', 'a']);
    const flat = new Map([
      ['x', 0.4],
      ['y', 0.4],
    ]);
    expect(
      mixSentenceScores(
        [
          { key: 'y', score: 2 },
          { key: 'x', score: 2 },
        ],
        flat,
      ),
    ).toEqual(['y', 'x']);
    expect(mixSentenceScores([{ key: 'x', score: 1 }], new Map([['x', Number.NaN]]))).toEqual(['x']);
  });
});

describe('ranking with the real sentence encoder', () => {
  const catalogue = [
    mcp('fx', 'exchange_rate', 'Get the exchange rate between two currencies', ['from', 'to']),
    mcp('weather', 'get_forecast', 'Weather forecast for a city for the next days', ['city']),
    mcp('github', 'delete_repository', 'Delete a GitHub repository permanently', ['owner', 'repo']),
    mcp('mail', 'send_email', 'Send an email message to a recipient', ['to', 'subject', 'body']),
    mcp('fs', 'read_file', 'Read the complete contents of a file from disk', ['path']),
    mcp('calendar', 'list_events', 'List the events in a calendar between two dates', ['start', 'end']),
  ];
  let encoder: Awaited<ReturnType<typeof loadNodeEncoder>>;
  const tools = new Map<string, number[]>();
  const cosinesFor = async (query: string) => {
    const [q] = Array.from(await encoder.embed([query.slice(0, SENTENCE_QUERY_CHARS)]), (v) => Array.from(v));
    const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return new Map(
      [...tools].map(([name, v]) => [name, v.reduce((s, x, i) => s + x * q[i], 0) / (norm(v) * norm(q))]),
    );
  };

  beforeAll(async () => {
    encoder = await loadNodeEncoder();
    const vectors = await encoder.embed(catalogue.map((t) => sentenceToolText(toolSearchDoc(t))));
    for (const [i, t] of catalogue.entries()) tools.set(t.name, Array.from(vectors[i]));
  });

  it('ranks no tool by meaning alone (a query of nonsense is near something too); ungated it would', async () => {
    const query = 'how many euros are 100 Danish kroner worth';
    expect(rankDeferred(catalogue, query, 5)).toEqual([]);
    const cosines = await cosinesFor(query);
    expect(rankDeferred(catalogue, query, 5, undefined, cosines)).toEqual([]);
    const ungated = rankDeferred(catalogue, query, 5, undefined, cosines, NO_SENTENCE_GATE);
    expect(ungated[0]?.tool.name).toBe('mcp__fx__exchange_rate');
  });

  it('lets a tool join by meaning alone only past both parts of a gate', () => {
    const cosines = new Map([
      ['a', 0.5],
      ['b', 0.2],
      ['c', 0.1],
      ['d', 0.1],
    ]);
    // mean 0.225, sd ~0.164: a stands 1.68 sd above it.
    expect(mixSentenceScores([], cosines, 0.5, { minCosine: 0.4, minZ: 1.5 })).toEqual(['a']);
    expect(mixSentenceScores([], cosines, 0.5, { minCosine: 0.4, minZ: 2 })).toEqual([]);
    expect(mixSentenceScores([], cosines, 0.5, { minCosine: 0.6, minZ: 0 })).toEqual([]);
    expect(mixSentenceScores([{ key: 'c', score: 1 }], cosines, 0.5, SENTENCE_GATE)).toEqual(['c']);
  });

  it('keeps a plain word match first', async () => {
    const query = 'send an email to Bob about the meeting';
    const ranked = rankDeferred(catalogue, query, 5, undefined, await cosinesFor(query));
    expect(ranked[0]?.tool.name).toBe('mcp__mail__send_email');
  });

  it('ranks only tools with a +required word', async () => {
    const query = '+file read the notes and mail them to Bob';
    const ranked = rankDeferred(catalogue, query, 5, undefined, await cosinesFor(query));
    expect(ranked.map((g) => g.tool.name)).toEqual(['mcp__fs__read_file']);
  });
});
