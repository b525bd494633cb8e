/**
 * Keyword ranking for ToolSearch: BM25F over the fields of a tool (name parts, server, searchHint,
 * description, parameter names, parameter descriptions), each with its own weight and length
 * normalization, over light-stemmed terms without stop words, times a boost for how much of the tool's
 * own name the query covers (a query that says "geocode an address" names `geocode_address`).
 *
 * Plain BM25 over one bag of words loses to this on real catalogues (bench/tool-search.ts): names are
 * short and decisive but drown in long descriptions, `file_path` and `filePath` and "files" are one
 * term here and three there, and generic words ("the", "using") add noise. Pure functions.
 */

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
}

type Field = 'name' | 'server' | 'hint' | 'description' | 'paramNames' | 'paramText';
const FIELDS: readonly Field[] = ['name', 'server', 'hint', 'description', 'paramNames', 'paramText'];

/** Field weights and BM25 length normalization (b). Names are short and decisive; prose is long. */
const WEIGHT: Record<Field, number> = {
  name: 3,
  server: 1.2,
  hint: 2,
  description: 1,
  paramNames: 0.8,
  paramText: 0.3,
};
const B: Record<Field, number> = {
  name: 0.3,
  server: 0.3,
  hint: 0.5,
  description: 0.75,
  paramNames: 0.5,
  paramText: 0.75,
};
const K1 = 1.2;
/** How much a query covering the whole tool name multiplies the score by (1 + NAME_BOOST). */
const NAME_BOOST = 0.6;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on for with and or by from as at is are be been was were this that these those it its ' +
    'into onto using use used via per each any all some such than then there their them they we you your our ' +
    'i me my can could should would will shall may might must do does did done has have had not no yes if ' +
    'so up out about over under also only just more most other which what when where who whom how why ' +
    'please etc e g ie eg based given within without between both'
  ).split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Lower-cased words of `text`: camelCase and snake_case split, CJK runs as character bigrams. */
export function words(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  const out: string[] = [];
  for (const run of spaced.split(/[^a-z0-9\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+/)) {
    if (!run) continue;
    if (!CJK.test(run)) {
      out.push(run);
      continue;
    }
    // Mixed runs: latin parts as words, CJK parts as bigrams.
    for (const part of run.split(/([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+)/)) {
      if (!part) continue;
      if (!CJK.test(part)) out.push(part);
      else if (part.length === 1) out.push(part);
      else for (let i = 0; i < part.length - 1; i++) out.push(part.slice(i, i + 2));
    }
  }
  return out;
}

/** A light English stemmer: plural, -ing, -ed, -ation forms and a final e fold together. */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  const rules: [RegExp, string][] = [
    [/ational$/, 'ate'],
    [/ization$/, 'ize'],
    [/ations?$/, 'ate'],
    [/(ness|ments?)$/, ''],
    [/ies$/, 'y'],
    [/sses$/, 'ss'],
    [/([^su])s$/, '$1'],
  ];
  for (const [re, to] of rules) {
    const next = w.replace(re, to);
    if (next !== w && next.length >= 3) {
      w = next;
      break;
    }
  }
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Search terms of `text`: words without stop words, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

interface IndexedDoc {
  doc: SearchDoc;
  tf: Record<Field, Map<string, number>>;
  len: Record<Field, number>;
  nameTerms: string[];
  /** Every distinct term of every field (for document frequencies). */
  allTerms: string[];
  /** Lower-cased name for `+required` checks. */
  lowerName: string;
}

const indexed = new WeakMap<SearchDoc, IndexedDoc>();

function counts(list: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of list) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

function indexDoc(doc: SearchDoc): IndexedDoc {
  const hit = indexed.get(doc);
  if (hit) return hit;
  const toolName = doc.toolName ?? doc.name;
  const fieldTerms: Record<Field, string[]> = {
    name: terms(toolName),
    server: terms(doc.server ?? ''),
    hint: terms(doc.searchHint ?? ''),
    description: terms(doc.description),
    paramNames: doc.params.flatMap((p) => terms(p.name)),
    paramText: doc.params.flatMap((p) => terms(p.description ?? '')),
  };
  const tf = {} as Record<Field, Map<string, number>>;
  const len = {} as Record<Field, number>;
  for (const f of FIELDS) {
    tf[f] = counts(fieldTerms[f]);
    len[f] = fieldTerms[f].length;
  }
  const entry: IndexedDoc = {
    doc,
    tf,
    len,
    nameTerms: [...new Set(fieldTerms.name)],
    allTerms: [...new Set(FIELDS.flatMap((f) => fieldTerms[f]))],
    lowerName: doc.name.toLowerCase(),
  };
  indexed.set(doc, entry);
  return entry;
}

export interface RankedDoc<D extends SearchDoc = SearchDoc> {
  doc: D;
  score: number;
}

/** A parsed keyword query: `+term` must appear in the tool name; the other terms rank. */
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

/** True when the tool name contains the required word (as a substring, or a name term by stem). */
function hasRequired(d: IndexedDoc, word: string): boolean {
  if (d.lowerName.includes(word)) return true;
  const ts = terms(word);
  return ts.length > 0 && ts.every((t) => d.nameTerms.includes(t) || d.tf.server.has(t));
}

/**
 * Ranks `docs` for a keyword query (`+term` required in the name, other words ranked). Returns the
 * matching docs with a positive score, best first (ties keep catalogue order), at most `limit`.
 */
export function rankTools<D extends SearchDoc>(
  query: string,
  docs: readonly D[],
  limit = Infinity,
): RankedDoc<D>[] {
  const { required, optional } = parseKeywordQuery(query);
  const all = docs.map(indexDoc);
  const pool = required.length ? all.filter((d) => required.every((w) => hasRequired(d, w))) : all;
  const queryTerms = [...new Set(optional.flatMap(terms))];
  if (queryTerms.length === 0) {
    // Only required words: every tool that has them, in catalogue order.
    return required.length ? pool.slice(0, limit).map((d) => ({ doc: d.doc as D, score: 1 })) : [];
  }

  const n = all.length;
  const avg = {} as Record<Field, number>;
  for (const f of FIELDS) avg[f] = Math.max(1, all.reduce((s, d) => s + d.len[f], 0) / Math.max(1, n));
  const df = new Map<string, number>();
  for (const d of all) for (const t of d.allTerms) df.set(t, (df.get(t) ?? 0) + 1);
  const idfs = new Map<string, number>();
  const idf = (t: string): number => {
    let v = idfs.get(t);
    if (v === undefined) {
      const count = df.get(t) ?? 0;
      v = Math.log(1 + (n - count + 0.5) / (count + 0.5));
      idfs.set(t, v);
    }
    return v;
  };
  const querySet = new Set(queryTerms);

  const scored: { d: IndexedDoc; score: number; order: number }[] = [];
  pool.forEach((d, order) => {
    let score = 0;
    for (const t of queryTerms) {
      let tfw = 0;
      for (const f of FIELDS) {
        const tf = d.tf[f].get(t);
        if (!tf) continue;
        tfw += (WEIGHT[f] * tf) / (1 - B[f] + (B[f] * d.len[f]) / avg[f]);
      }
      if (tfw > 0) score += idf(t) * ((tfw * (K1 + 1)) / (tfw + K1));
    }
    if (score <= 0) return;
    // Share of the tool's own name (by idf) that the query mentions.
    let nameAll = 0;
    let nameHit = 0;
    for (const t of d.nameTerms) {
      const w = idf(t);
      nameAll += w;
      if (querySet.has(t)) nameHit += w;
    }
    if (nameAll > 0) score *= 1 + (NAME_BOOST * nameHit) / nameAll;
    scored.push({ d, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, limit).map((s) => ({ doc: s.d.doc as D, score: s.score }));
}
