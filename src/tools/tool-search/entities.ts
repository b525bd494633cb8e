/**
 * Words for what a query points at but does not name. A task that says "save it as Markdown to
 * /root/markdown/report.md" needs a tool that writes files, yet its words are "save", "root", "markdown",
 * "report", "md": no tool's text says "save ... md". The path is the evidence, so its kind joins the query
 * as words tool text uses:
 * - a file path or a file name with a common extension adds "file", and "write" too when the query has a
 *   verb of output (save, write, store, export, draft), and what its extension says the file is (.pptx:
 *   "presentation powerpoint", .xlsx: "excel spreadsheet", .md: "markdown", .png: "image", ...);
 * - a URL adds "url fetch" (what tools that read a page say).
 *
 * Measured on the tuning split (bench/tool-search-experiments.ts `entities`, recall@5 against the ranking
 * without it): LiveMCPBench tasks 0.380 → 0.422 (file and URL words) → 0.437 (with the extensions' kinds),
 * steps 0.778 → 0.778 (MRR@10 0.656 → 0.667), MetaTool 0.658 → 0.658 (its queries have no paths or URLs). Tried and left out: "file write" for every path
 * (tasks 0.431, but a query that reads a file would be pulled to writers), words for relative dates
 * ("today", "next Wednesday" → current time: MetaTool 0.658 → 0.654, tasks recall@1 0.368 → 0.342).
 * Pure; never throws.
 */

/** Longest query scanned for entities (the ranking reads at most TOOL_SEARCH_MAX_QUERY_CHARS anyway). */
const MAX_SCANNED_CHARS = 2000;

/** An absolute, home or relative path of two or more parts, or a Windows path. */
const PATH = /(?:^|[\s"'`(])(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]*)+|(?:^|\s)[A-Za-z]:\\[\w.\\-]+/;
/**
 * A bare file name with an extension documents and data are commonly saved or read as (not .js or .ts:
 * "node.js" and "next.js" are names, not files).
 */
const FILE_NAME =
  /(?:^|[\s"'`(])[\w-]+\.(?:md|txt|csv|tsv|json|ya?ml|xml|xlsx?|docx?|pptx?|pdf|png|jpe?g|gif|svg|html?|wav|mp3|mp4|zip)\b/i;
/** Verbs that make a path a destination. */
const OUTPUT_VERB = /\b(?:save|saved|saves|saving|write|writes|writing|store|stores|export|exports|draft)\b/i;
const URL = /\bhttps?:\/\/\S+|\bwww\.[\w-]+\.\S+/i;

/** What a file's extension says it is, in the words tools use for it (the benchmark's `entities` experiment reads it too). */
export const FILE_KINDS: Readonly<Record<string, string>> = {
  md: 'markdown',
  xlsx: 'excel spreadsheet',
  xls: 'excel spreadsheet',
  pptx: 'presentation powerpoint',
  ppt: 'presentation powerpoint',
  docx: 'word document',
  doc: 'word document',
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  wav: 'audio',
  mp3: 'audio',
  mp4: 'video',
};
/** A file name's extension (a word character before the dot, so ".5" or "..." never count). */
const EXTENSION = /\w\.([A-Za-z0-9]{2,4})\b/g;
/** Kinds added per query at most (a pasted list of files adds a few words, not a page). */
const MAX_KINDS = 4;

/** The words `query` implies (see the module comment), space-separated; '' when none. */
export function entityWords(query: string): string {
  const q = query.length > MAX_SCANNED_CHARS ? query.slice(0, MAX_SCANNED_CHARS) : query;
  const out: string[] = [];
  if (PATH.test(q) || FILE_NAME.test(q)) {
    out.push('file');
    if (OUTPUT_VERB.test(q)) out.push('write');
    const kinds = new Set<string>();
    for (const m of q.matchAll(EXTENSION)) {
      const kind = FILE_KINDS[m[1].toLowerCase()];
      if (kind) kinds.add(kind);
      if (kinds.size >= MAX_KINDS) break;
    }
    out.push(...kinds);
  }
  if (URL.test(q)) out.push('url', 'fetch');
  return out.join(' ');
}

/** `query` with its entity words appended (unchanged when it implies none). */
export function withEntityWords(query: string): string {
  const extra = entityWords(query);
  return extra ? `${query} ${extra}` : query;
}
