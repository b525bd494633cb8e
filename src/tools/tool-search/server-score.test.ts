/**
 * Server evidence in the ranking (./server-score.ts) and soft expansions of words the catalogue has
 * (./ranking.ts), on small real catalogues.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildSearchIndex, queryWords, RANKING_WEIGHTS, type SearchDoc } from './ranking.ts';
import { rankWithServers, serverIndexFor } from './server-score.ts';

const doc = (server: string, tool: string, description: string): SearchDoc => ({
  name: `mcp__${server}__${tool}`,
  toolName: tool,
  server,
  description,
  params: [],
});

const CATALOGUE = [
  doc('finance', 'get_ticker_news', 'News articles about one stock ticker'),
  doc('finance', 'get_quote', 'Latest price of a stock'),
  doc('trends', 'get_theverge', 'Technology news from The Verge'),
  doc('trends', 'get_bbc', 'World news from the BBC'),
  doc('trends', 'get_hackernews', 'Top technology news stories'),
];

const saved = { ...RANKING_WEIGHTS };
afterEach(() => {
  Object.assign(RANKING_WEIGHTS, saved);
});

const names = (index: ReturnType<typeof buildSearchIndex>, q: string) =>
  rankWithServers(index, q, 10).map((r) => r.doc.toolName);

describe('server evidence', () => {
  it("a news query prefers a news server's tools over a tool elsewhere that mentions news", () => {
    const index = buildSearchIndex(CATALOGUE);
    RANKING_WEIGHTS.serverMix = 0;
    expect(names(index, 'world news')).toEqual([
      'get_bbc',
      'get_ticker_news',
      'get_theverge',
      'get_hackernews',
    ]);
    RANKING_WEIGHTS.serverMix = 0.4;
    expect(names(index, 'world news')).toEqual([
      'get_bbc',
      'get_theverge',
      'get_hackernews',
      'get_ticker_news',
    ]);
    // The tool's own match still leads: a stock query keeps the finance tools first.
    expect(names(index, 'news about a stock').slice(0, 2)).toEqual(['get_ticker_news', 'get_quote']);
  });

  it('adds to a match, never makes one: a tool with no word of the query is not ranked', () => {
    const index = buildSearchIndex(CATALOGUE);
    expect(names(index, 'stock price')).toEqual(['get_quote', 'get_ticker_news']);
  });

  it('one server (or tools without one): the plain lexical ranking, unchanged', () => {
    const single = buildSearchIndex(CATALOGUE.map((d) => ({ ...d, server: 'all' })));
    expect(serverIndexFor(single)).toBeNull();
    const noServer = buildSearchIndex(CATALOGUE.map((d) => ({ ...d, server: undefined })));
    expect(serverIndexFor(noServer)).toBeNull();
    RANKING_WEIGHTS.serverMix = 0;
    const plain = names(single, 'world news');
    RANKING_WEIGHTS.serverMix = 0.4;
    expect(names(single, 'world news')).toEqual(plain);
  });
});

describe('soft expansions', () => {
  it('a word the catalogue has keeps its own match first; its neighbours count at softShare', () => {
    const index = buildSearchIndex(CATALOGUE);
    const expansions = new Map([
      ['news', [{ word: 'stories', similarity: 0.8 }]],
      ['headlines', [{ word: 'news', similarity: 0.7 }]],
    ]);
    const [news, headlines] = queryWords(index, 'news headlines', expansions);
    expect(news.word).toBe('news');
    expect(news.alternatives.get('news')).toBe(1);
    expect(news.alternatives.get('story')).toBeCloseTo(
      RANKING_WEIGHTS.expansionWeight * 0.8 * RANKING_WEIGHTS.softShare,
    );
    // "headlines" is not in the catalogue: its expansion counts in full.
    expect(headlines.alternatives.get('news')).toBeCloseTo(RANKING_WEIGHTS.expansionWeight * 0.7);
  });
});
