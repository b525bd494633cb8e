/**
 * The lexical stage of ToolSearch: BM25F over the fields of a tool (name parts, server, searchHint,
 * description, parameter names, parameter descriptions), each with its own weight and length
 * normalization, over stemmed terms without stop words (./tokenize.ts), with an inverted index built once
 * per catalogue. On top of plain term matching:
 * - a query's camelCase compound is used whole when the catalogue knows it ("GitHub" → github);
 * - a stem also matches its close relatives in the catalogue's vocabulary (same first
 *   FAMILY_MIN_PREFIX letters, one a prefix of the other, at most FAMILY_MAX_EXTRA letters longer:
 *   "notif"/"notifi", "regist"/"registr"), at RANKING_WEIGHTS.familyWeight;
 * - expansions from the semantic stage (./semantic.ts) join as weighted alternatives of the query word
 *   they came from; a query word scores a tool once, by its best alternative;
 * - a small boost for the share of the tool's own name the query covers.
 * Pure functions; never throw.
 */
import { docTerms, isAz, termOf, tokenize } from './tokenize.ts';

/** What a tool offers to search. */
export interface SearchDoc {
  /** The name the model calls, e.g. `mcp__github__create_issue`. */
  name: string;
  /** The tool's own name without the `mcp__<server>__` prefix (default: `name`). */
  toolName?: string;
  /** The MCP server, when any. */
  server?: string;
  searchHint?: string;
  description: string;
  params: readonly { name: string; description?: string }[];
  /** English words for the Chinese in the description, when it has any (./glossary.ts). */
  translation?: string;
}

type Field = 'name' | 'server' | 'hint' | 'description' | 'translation' | 'paramNames' | 'paramText';
const FIELDS: readonly Field[] = [
  'name',
  'server',
  'hint',
  'description',
  'translation',
  'paramNames',
  'paramText',
];

/** Field weights and BM25 length normalization (b). Names are short and decisive; prose is long. */
export const FIELD_WEIGHT: Record<Field, number> = {
  name: 2,
  server: 1,
  hint: 2,
  description: 1,
  translation: 1,
  paramNames: 0.6,
  paramText: 0.3,
};
const FIELD_B: Record<Field, number> = {
  name: 0.3,
  server: 0.3,
  hint: 0.5,
  description: 0.75,
  translation: 0.75,
  paramNames: 0.5,
  paramText: 0.75,
};
/**
 * The ranking's tunable weights, one object so the benchmark's tuning runs can vary them (tuned on the
 * tuning split only). nameBoost: a query covering the whole tool name multiplies the score by
 * (1 + nameBoost); familyWeight: a stem relative against an exact match; expansionWeight: a semantic
 * expansion of similarity 1. (A diversity pass for multi-part queries, favouring tools that cover query
 * words not yet covered, lowered recall on the tuning split at every strength tried and was removed.)
 *
 * Tuning split, recall@5 / MRR@10 (bench/tool-search-tune.ts; variants one at a time from these values):
 * serverMix 0.4 with softShare 0.5 raised LiveMCPBench steps MRR 0.611 → 0.656, tasks 0.444 → 0.465,
 * MetaTool recall@5 0.647 → 0.655; expansionWeight 0.6 → 0.5 then MetaTool 0.655 → 0.658 and tasks
 * recall@5 0.369 → 0.380 (0.4 was worse on all three). No change helped on every source: field weights
 * (name 1–1.5, description 1.5, parameters halved), nameBoost 0 / 0.15 / 0.2, k1 0.8–2.2, 3 or 4
 * neighbours, a similarity floor of 0.5 with 8 neighbours.
 */
export const RANKING_WEIGHTS = {
  nameBoost: 0.3,
  familyWeight: 0.8,
  expansionWeight: 0.5,
  /**
   * An expansion of a query word the catalogue already has counts at this share of a gap word's: the
   * word's own match stays first, its neighbours ("trending" → popular) add a little.
   */
  softShare: 0.5,
  /** Weight of the tool's server against the tool itself (./server-score.ts). */
  serverMix: 0.4,
  /** BM25 term-frequency saturation. */
  k1: 1.2,
};
/** Stem relatives: shortest shared prefix, most extra letters, and their weight against an exact match. */
export const FAMILY_MIN_PREFIX = 5;
export const FAMILY_MAX_EXTRA = 3;
/** Description text indexed per tool (long descriptions add noise, not recall). */
export const MAX_INDEXED_DESCRIPTION = 4000;
/** Distinct query words ranked (a pasted page is cut to its first words). */
export const MAX_QUERY_WORDS = 64;

interface Posting {
  docs: number[];
  /** Field-weighted, length-normalized term frequency, per doc in `docs`. */
  tfw: number[];
  /**
   * Docs that have the term in their own text, not only in a translation. Translations add matches, not
   * statistics: a term's rarity (IDF) and whether the catalogue "has" a query word are the catalogue's
   * own, so glossing a few Chinese descriptions leaves the ranking of English ones as it was.
   */
  own: number;
}

/** The inverted index of one catalogue. */
export interface SearchIndex<D extends SearchDoc = SearchDoc> {
  docs: readonly D[];
  postings: Map<string, Posting>;
  /** Per doc: its distinct name terms (for the coverage boost). */
  nameTerms: string[][];
  /** Per doc: its lower-case name, server and name terms (for `+required`). */
  lowerNames: string[];
  /** Stems by their first FAMILY_MIN_PREFIX letters. */
  families: Map<string, string[]>;
  /** Surface words of the catalogue (a–z), with the term each indexes as (for the semantic stage). */
  vocabulary: Map<string, string>;
}

function fieldTerms(doc: SearchDoc): Record<Field, string[]> {
  return {
    name: docTerms(doc.toolName ?? doc.name),
    server: docTerms(doc.server ?? ''),
    hint: docTerms(doc.searchHint ?? ''),
    description: docTerms(doc.description.slice(0, MAX_INDEXED_DESCRIPTION)),
    translation: docTerms(doc.translation ?? ''),
    paramNames: doc.params.flatMap((p) => docTerms(p.name)),
    paramText: doc.params.flatMap((p) => docTerms((p.description ?? '').slice(0, 500))),
  };
}

function collectVocabulary(doc: SearchDoc, into: Map<string, string>): void {
  const text = [
    doc.toolName ?? doc.name,
    doc.description.slice(0, MAX_INDEXED_DESCRIPTION),
    doc.searchHint ?? '',
  ]
    .concat(doc.params.map((p) => p.name))
    .join(' ');
  for (const t of tokenize(text)) {
    for (const w of t.parts ? [t.word, ...t.parts] : [t.word]) {
      if (into.has(w) || !isAz(w)) continue;
      const term = termOf(w);
      if (term) into.set(w, term);
    }
  }
}

/** Builds the index of `docs` (linear in their text). */
export function buildSearchIndex<D extends SearchDoc>(docs: readonly D[]): SearchIndex<D> {
  const perDoc = docs.map(fieldTerms);
  const avg = {} as Record<Field, number>;
  for (const f of FIELDS) {
    // A translation is measured against the other translations (most tools have none): it stands for a
    // description, and should weigh like one.
    const holders = f === 'translation' ? perDoc.filter((d) => d[f].length > 0).length : docs.length;
    avg[f] = Math.max(1, perDoc.reduce((s, d) => s + d[f].length, 0) / Math.max(1, holders));
  }
  const postings = new Map<string, Posting>();
  const vocabulary = new Map<string, string>();
  perDoc.forEach((fields, i) => {
    const tfw = new Map<string, number>();
    const own = new Set<string>();
    for (const f of FIELDS) {
      const norm = 1 - FIELD_B[f] + (FIELD_B[f] * fields[f].length) / avg[f];
      for (const t of fields[f]) {
        tfw.set(t, (tfw.get(t) ?? 0) + FIELD_WEIGHT[f] / norm);
        if (f !== 'translation') own.add(t);
      }
    }
    for (const [t, w] of tfw) {
      let p = postings.get(t);
      if (!p) {
        p = { docs: [], tfw: [], own: 0 };
        postings.set(t, p);
      }
      p.docs.push(i);
      p.tfw.push(w);
      if (own.has(t)) p.own++;
    }
    collectVocabulary(docs[i], vocabulary);
  });
  const families = new Map<string, string[]>();
  for (const t of postings.keys()) {
    if (t.length < FAMILY_MIN_PREFIX || !isAz(t)) continue;
    const key = t.slice(0, FAMILY_MIN_PREFIX);
    const list = families.get(key);
    if (list) list.push(t);
    else families.set(key, [t]);
  }
  return {
    docs,
    postings,
    nameTerms: perDoc.map((d) => [...new Set(d.name)]),
    lowerNames: docs.map((d, i) => `${d.name} ${d.server ?? ''} ${perDoc[i].name.join(' ')}`.toLowerCase()),
    families,
    vocabulary,
  };
}

/** True when some tool has `term` in its own text (a translation alone does not count). */
export function hasOwn(index: SearchIndex, term: string): boolean {
  return (index.postings.get(term)?.own ?? 0) > 0;
}

/** A parsed keyword query: `+term` must appear in the tool name; the other words rank. */
export interface KeywordQuery {
  required: string[];
  optional: string[];
}

export function parseKeywordQuery(query: string): KeywordQuery {
  const required: string[] = [];
  const optional: string[] = [];
  for (const token of query.split(/\s+/)) {
    if (!token) continue;
    if (token.startsWith('+') && token.length > 1) required.push(token.slice(1).toLowerCase());
    else optional.push(token);
  }
  return { required, optional };
}

/** One word of the query: the terms that may stand for it, each with a weight (1 = the word itself). */
export interface QueryWord {
  word: string;
  alternatives: Map<string, number>;
}

/** Expansions from the semantic stage: for a query word, catalogue words with their similarity (0–1). */
export type Expansions = ReadonlyMap<string, readonly { word: string; similarity: number }[]>;

/** The query's words with their alternatives: compound or parts, stem relatives, semantic expansions. */
export function queryWords(index: SearchIndex, text: string, expansions?: Expansions): QueryWord[] {
  const out = new Map<string, QueryWord>();
  const add = (word: string, term: string) => {
    if (out.has(word) || out.size >= MAX_QUERY_WORDS) return;
    const alternatives = new Map<string, number>([[term, 1]]);
    if (term.length >= FAMILY_MIN_PREFIX) {
      for (const rel of index.families.get(term.slice(0, FAMILY_MIN_PREFIX)) ?? []) {
        const [short, long] = rel.length < term.length ? [rel, term] : [term, rel];
        if (rel !== term && long.startsWith(short) && long.length - short.length <= FAMILY_MAX_EXTRA) {
          alternatives.set(rel, RANKING_WEIGHTS.familyWeight);
        }
      }
    }
    const own = expansions?.get(word);
    const share =
      own?.length && [...alternatives.keys()].some((t) => hasOwn(index, t)) ? RANKING_WEIGHTS.softShare : 1;
    for (const e of own ?? []) {
      const t = index.vocabulary.get(e.word) ?? termOf(e.word);
      const w = RANKING_WEIGHTS.expansionWeight * e.similarity * share;
      if (t && (alternatives.get(t) ?? 0) < w) alternatives.set(t, w);
    }
    out.set(word, { word, alternatives });
  };
  for (const tok of tokenize(text)) {
    const whole = termOf(tok.word);
    if (tok.parts && !(whole && hasOwn(index, whole))) {
      for (const p of tok.parts) {
        const t = termOf(p);
        if (t) add(p, t);
      }
    } else if (whole) add(tok.word, whole);
  }
  return [...out.values()];
}

/** True when the tool name (or server) holds the required word, as a substring or a name term by stem. */
function hasRequired(index: SearchIndex, i: number, word: string): boolean {
  const lower = index.lowerNames[i];
  if (lower.includes(word)) return true;
  const t = termOf(word);
  return t !== null && lower.split(' ').includes(t);
}

export interface RankedDoc<D extends SearchDoc = SearchDoc> {
  doc: D;
  score: number;
}

export interface RankOptions {
  limit?: number;
  expansions?: Expansions;
  /**
   * A multiplier per query term (the word's own term); terms it lacks count 1. The app passes none; the
   * benchmark's `termweights` experiment (learned weights, not adopted) does.
   */
  termWeights?: ReadonlyMap<string, number>;
}

/**
 * Ranks the index's docs for a keyword query (`+term` required in the name, other words ranked).
 * Returns docs with a positive score, best first (ties keep catalogue order), at most `limit`.
 */
export function rankIndex<D extends SearchDoc>(
  index: SearchIndex<D>,
  query: string,
  options: RankOptions = {},
): RankedDoc<D>[] {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const { required, optional } = parseKeywordQuery(query);
  const n = index.docs.length;
  let allowed: Uint8Array | undefined;
  if (required.length) {
    allowed = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (required.every((w) => hasRequired(index, i, w))) allowed[i] = 1;
  }
  const qws = queryWords(index, optional.join(' '), options.expansions);
  if (qws.length === 0) {
    if (!allowed) return [];
    const out: RankedDoc<D>[] = [];
    for (let i = 0; i < n && out.length < limit; i++)
      if (allowed[i]) out.push({ doc: index.docs[i], score: 1 });
    return out;
  }
  const idfs = new Map<string, number>();
  const idf = (t: string) => {
    let v = idfs.get(t);
    if (v === undefined) {
      const p = index.postings.get(t);
      const df = p ? p.own || p.docs.length : 0;
      v = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfs.set(t, v);
    }
    return v;
  };
  const k1 = RANKING_WEIGHTS.k1;
  const score = new Float64Array(n);
  const best = new Float64Array(n);
  const touched: number[] = [];
  const hit: number[] = [];
  // The query's own terms (weight 1): a tool's name term among them counts for the coverage boost.
  const exact = new Set<string>();
  for (const qw of qws) for (const [t, w] of qw.alternatives) if (w === 1) exact.add(t);
  for (const qw of qws) {
    hit.length = 0;
    let own = 1;
    if (options.termWeights) {
      for (const [t, w] of qw.alternatives) if (w === 1) own = options.termWeights.get(t) ?? 1;
    }
    for (const [term, weight] of qw.alternatives) {
      const p = index.postings.get(term);
      if (!p) continue;
      const w = own * weight * idf(term);
      for (let k = 0; k < p.docs.length; k++) {
        const i = p.docs[k];
        if (allowed && !allowed[i]) continue;
        const s = (w * (p.tfw[k] * (k1 + 1))) / (p.tfw[k] + k1);
        if (best[i] === 0) hit.push(i);
        if (s > best[i]) best[i] = s;
      }
    }
    for (const i of hit) {
      if (score[i] === 0) touched.push(i);
      score[i] += best[i];
      best[i] = 0;
    }
  }
  const ranked: { i: number; s: number }[] = [];
  for (const i of touched) {
    let boost = 1;
    const names = index.nameTerms[i];
    if (names.length) {
      let all = 0;
      let hitIdf = 0;
      for (const t of names) {
        const w = idf(t);
        all += w;
        if (exact.has(t)) hitIdf += w;
      }
      if (all > 0) boost = 1 + (RANKING_WEIGHTS.nameBoost * hitIdf) / all;
    }
    ranked.push({ i, s: score[i] * boost });
  }
  ranked.sort((a, b) => b.s - a.s || a.i - b.i);
  return ranked.slice(0, limit).map((r) => ({ doc: index.docs[r.i], score: r.s }));
}

const indexes = new WeakMap<readonly SearchDoc[], SearchIndex>();

/** Ranks `docs` for a keyword query (the index is built once per docs array). See rankIndex. */
export function rankTools<D extends SearchDoc>(
  query: string,
  docs: readonly D[],
  limit = Number.POSITIVE_INFINITY,
  expansions?: Expansions,
): RankedDoc<D>[] {
  let index = indexes.get(docs) as SearchIndex<D> | undefined;
  if (!index) {
    index = buildSearchIndex(docs);
    indexes.set(docs, index);
  }
  return rankIndex(index, query, { limit, expansions });
}

/**
 * The query's a–z words the catalogue lacks: no term of theirs (nor a stem relative) is indexed. These
 * are the words the semantic stage expands at full weight.
 */
export function gapWords(index: SearchIndex, text: string): string[] {
  return splitByPresence(index, text).gaps;
}

/**
 * The query's a–z words the semantic stage expands: the words the catalogue lacks first, then (when
 * RANKING_WEIGHTS.softShare > 0) the words it has, whose expansions count at that share.
 */
export function expandableWords(index: SearchIndex, text: string): string[] {
  const { gaps, present } = splitByPresence(index, text);
  return RANKING_WEIGHTS.softShare > 0 ? [...gaps, ...present] : gaps;
}

function splitByPresence(index: SearchIndex, text: string): { gaps: string[]; present: string[] } {
  const { optional } = parseKeywordQuery(text);
  const gaps: string[] = [];
  const present: string[] = [];
  for (const qw of queryWords(index, optional.join(' '))) {
    if (!isAz(qw.word)) continue;
    if ([...qw.alternatives.keys()].some((t) => hasOwn(index, t))) present.push(qw.word);
    else gaps.push(qw.word);
  }
  return { gaps, present };
}
