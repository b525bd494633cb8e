/**
 * Server evidence for the ranking: a tool is also judged by its server. Each MCP server becomes one
 * search document (its name, and every tool's name and the start of its description), ranked for the
 * query with the same lexical stage; a tool's score is its own (over the best tool's) plus
 * RANKING_WEIGHTS.serverMix × its server's (over the best server's). A query about "news" then prefers
 * the tools of a news server over a tool elsewhere that mentions news once, and a tool whose own text
 * is short (or in another language) gains from its siblings' words.
 *
 * Measured on the tuning split (bench/tool-search-tune.ts): with serverMix 0.4 (and soft expansions,
 * ./ranking.ts) LiveMCPBench steps recall@1 0.519 → 0.593, tasks MRR@10 0.444 → 0.465 (MetaTool is one
 * server: no effect); 0.2 did less, 0.3 and 0.5 less on steps, 0.7 cost tasks recall@5.
 *
 * Only tools with a score of their own are ranked (the server adds to a match, it never makes one). Tools
 * without a server (deferred built-ins) get no server evidence. Pure; never throws.
 */
import {
  buildSearchIndex,
  type Expansions,
  RANKING_WEIGHTS,
  type RankedDoc,
  rankIndex,
  type SearchDoc,
  type SearchIndex,
} from './ranking.ts';

/** Characters of each tool's description that go into its server's document. */
export const SERVER_DOC_DESCRIPTION_CHARS = 600;

const serverIndexes = new WeakMap<SearchIndex, SearchIndex | null>();

/** The server documents of a tool index (null when its tools come from fewer than two servers). */
export function serverIndexFor(index: SearchIndex): SearchIndex | null {
  let out = serverIndexes.get(index);
  if (out !== undefined) return out;
  const byServer = new Map<string, SearchDoc[]>();
  for (const d of index.docs) {
    if (!d.server) continue;
    const list = byServer.get(d.server);
    if (list) list.push(d);
    else byServer.set(d.server, [d]);
  }
  out =
    byServer.size < 2
      ? null
      : buildSearchIndex(
          [...byServer].map(([server, docs]) => ({
            name: server,
            server,
            description: docs
              .map((d) => `${d.toolName ?? d.name} ${d.description.slice(0, SERVER_DOC_DESCRIPTION_CHARS)}`)
              .join('\n'),
            params: [],
          })),
        );
  serverIndexes.set(index, out);
  return out;
}

/**
 * rankIndex with server evidence (see the module comment); plain rankIndex when the catalogue has one
 * server or serverMix is 0. Best first, ties in lexical order, at most `limit`.
 */
export function rankWithServers<D extends SearchDoc>(
  index: SearchIndex<D>,
  query: string,
  limit: number,
  expansions?: Expansions,
  termWeights?: ReadonlyMap<string, number>,
): RankedDoc<D>[] {
  const mix = RANKING_WEIGHTS.serverMix;
  const servers = mix > 0 ? serverIndexFor(index) : null;
  if (!servers) return rankIndex(index, query, { limit, expansions, termWeights });
  const ranked = rankIndex(index, query, { expansions, termWeights });
  if (ranked.length === 0) return ranked;
  const serverRanked = rankIndex(servers, query, { expansions, termWeights });
  const top = ranked[0].score || 1;
  const topServer = serverRanked[0]?.score || 1;
  const serverScore = new Map(serverRanked.map((r) => [r.doc.name, r.score / topServer]));
  const scored = ranked.map((r, order) => ({
    r,
    order,
    s: r.score / top + mix * (r.doc.server ? (serverScore.get(r.doc.server) ?? 0) : 0),
  }));
  scored.sort((a, b) => b.s - a.s || a.order - b.order);
  return scored.slice(0, limit).map((x) => ({ doc: x.r.doc, score: x.s }));
}
