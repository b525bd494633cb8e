/**
 * ToolSearch: loads deferred tools (MCP tools unless alwaysLoad, `shouldDefer` built-ins). The pool of
 * the current request (`ctx.options.tools`) is its catalogue. Query forms: `select:A,B`, one exact name,
 * an `mcp__<server>` prefix, or keywords (`+term` required in the name) ranked by ./ranking.ts.
 *
 * Its result is one `tool_reference` block per loaded tool (native mode); the loop turns those into
 * full schemas as text when the session runs in portable mode. With no match it says so, and names the
 * MCP servers still connecting (their tools are not in the catalogue yet).
 *
 * Always in the pool, even with no deferred tool: adding it when the first MCP server connects would
 * change `tools` and bust the prompt cache of everything after it; it costs a few hundred cached tokens.
 */
import { z } from 'zod';
import {
  TOOL_SEARCH_DEFAULT_MAX_RESULTS,
  TOOL_SEARCH_MAX_RESULTS_LIMIT,
  TOOL_SEARCH_TOOL_NAME,
} from '../../core/constants.ts';
import { isDeferredTool, toolReferenceBlock } from '../../core/deferred-tools.ts';
import { messageOf } from '../../core/errors.ts';
import { type AnyTool, buildTool, textResult } from '../../core/tool.ts';
import { defaultGlossaryStage, defaultSemanticStage, defaultSentenceStage } from './default-semantic.ts';
import { type Glossary, hasHan, withEnglish } from './glossary.ts';
import type { GlossaryStage } from './glossary-stage.ts';
import promptText from './prompt.md?raw';
import { type Expansions, expandableWords } from './ranking.ts';
import {
  indexFor,
  isKeywordQuery,
  searchTools as runSearch,
  type SearchOptions,
  type SearchOutcome,
  TOOL_SEARCH_MAX_QUERY_CHARS,
  toolSearchDoc,
} from './search.ts';
import { SEMANTIC_MAX_WORDS, type SemanticStage } from './semantic.ts';
import { sentenceToolText } from './sentence.ts';
import type { SentenceStage, SentenceTool } from './sentence-stage.ts';

export { toolSearchDoc };

const PROMPT = promptText
  .replaceAll('{{DEFAULT_MAX_RESULTS}}', String(TOOL_SEARCH_DEFAULT_MAX_RESULTS))
  .replaceAll('{{MAX_RESULTS_LIMIT}}', String(TOOL_SEARCH_MAX_RESULTS_LIMIT))
  .trim();

const inputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .describe(
      'What to load: "select:<name>[,<name>...]", one exact tool name, "mcp__<server>", or keywords (prefix a word with + to require it in the name)',
    ),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(TOOL_SEARCH_MAX_RESULTS_LIMIT)
    .optional()
    .describe(`Most tools to return (default ${TOOL_SEARCH_DEFAULT_MAX_RESULTS})`),
});

export type ToolSearchInput = z.infer<typeof inputSchema>;

export interface ToolSearchOutput {
  query: string;
  /** Deferred tools loaded by this search, best first. */
  matches: string[];
  /** Deferred tools in the catalogue. */
  totalDeferred: number;
  /** MCP servers still connecting when the search ran. */
  connecting: string[];
  /** What the model should know besides the matches (sent beside them, or alone when none matched). */
  notes: string[];
  /** Which query form answered (select:, an exact name, an mcp__ server prefix, keywords). */
  form?: SearchOutcome['form'];
  /** How the semantic stage took part, for the UI: 'used', 'not needed', or why it did not. */
  semantic?: string;
}

/** Longest wait for the semantic stage on a query (the first one waits for the table to load). */
export const SEMANTIC_WAIT_MS = 1500;
/**
 * Longest wait for the sentence encoder's cosines. A ready encoder answers a query in 12-70 ms (Chromium,
 * WASM, one thread) plus at most one tool batch; one still loading or reading the tools answers at once
 * that it is not ready, and the ranking stays lexical.
 */
export const SENTENCE_WAIT_MS = 1500;

/** Runs a query over `pool` (lexical stage only; `options.expansions` adds semantic ones). Pure. */
export function searchTools(
  pool: readonly AnyTool[],
  query: string,
  maxResults: number = TOOL_SEARCH_DEFAULT_MAX_RESULTS,
  options: SearchOptions = {},
): SearchOutcome {
  return runSearch(pool, query, maxResults, options);
}

/**
 * Semantic expansions for a keyword query: the query words the catalogue lacks first, then the ones it
 * has (their expansions count less, see RANKING_WEIGHTS.softShare). Never rejects; the second value says
 * how the stage took part (for the UI).
 */
async function semanticExpansions(
  stage: SemanticStage | undefined,
  deferred: readonly AnyTool[],
  query: string,
  glossary: Glossary | undefined,
): Promise<{ expansions?: Expansions; semantic: string }> {
  if (!stage) return { semantic: 'off (no semantic stage here)' };
  const index = indexFor(deferred, glossary);
  const words = expandableWords(index, query.slice(0, TOOL_SEARCH_MAX_QUERY_CHARS)).slice(
    0,
    SEMANTIC_MAX_WORDS,
  );
  const before = stage.status();
  if (before.state === 'failed')
    return { semantic: `lexical only: the semantic stage failed (${before.reason})` };
  if (words.length === 0) return { semantic: 'not needed (no English word to expand)' };
  const expansions = await stage.expand(
    catalogueKey(index),
    [...index.vocabulary.keys()],
    words,
    SEMANTIC_WAIT_MS,
  );
  const after = stage.status();
  if (expansions) return { expansions, semantic: `used for: ${words.join(', ')}` };
  if (after.state === 'failed')
    return { semantic: `lexical only: the semantic stage failed (${after.reason})` };
  return { semantic: 'lexical only: the semantic stage is still loading' };
}

const sentenceTools = new WeakMap<object, SentenceTool[]>();
/** The deferred tools as the encoder reads them (once per catalogue index). */
function sentenceToolsOf(
  index: object,
  deferred: readonly AnyTool[],
  glossary: Glossary | undefined,
): SentenceTool[] {
  let tools = sentenceTools.get(index);
  if (!tools) {
    tools = deferred.map((t) => ({ name: t.name, text: sentenceToolText(toolSearchDoc(t, glossary)) }));
    sentenceTools.set(index, tools);
  }
  return tools;
}

/** What the card says when the user turned the sentence encoder off. */
export const SENTENCE_OFF_NOTE = 'sentence encoder off (Settings)';

/** The sentence encoder's cosines for a keyword query, and how it took part (for the UI). Never rejects. */
async function sentenceCosines(
  stage: SentenceStage | undefined,
  deferred: readonly AnyTool[],
  query: string,
  glossary: Glossary | undefined,
): Promise<{ sentence?: Map<string, number>; note?: string }> {
  if (!stage) return {};
  const index = indexFor(deferred, glossary);
  try {
    const answer = await stage.cosines(
      catalogueKey(index),
      sentenceToolsOf(index, deferred, glossary),
      // The encoder reads English: a query's Chinese is read through the glossary too.
      withEnglish(query.slice(0, TOOL_SEARCH_MAX_QUERY_CHARS), glossary),
      SENTENCE_WAIT_MS,
    );
    if ('cosines' in answer) return { sentence: answer.cosines, note: 'sentence encoder used' };
    return { note: `sentence encoder not used: ${answer.lexicalOnly}` };
  } catch (err) {
    return { note: `sentence encoder not used: ${messageOf(err)}` };
  }
}

const catalogueKeys = new WeakMap<object, string>();
let nextCatalogue = 1;
function catalogueKey(index: object): string {
  let key = catalogueKeys.get(index);
  if (!key) {
    key = `catalogue-${nextCatalogue++}`;
    catalogueKeys.set(index, key);
  }
  return key;
}

/** The catalogue the semantic stage was last asked to prepare (one per pool). */
let preparedIndex: object | undefined;

/**
 * Starts the semantic stage ahead of the first search: called with each request's tool pool, it loads
 * the word-vector table (in the stage's worker) once the pool first holds a deferred MCP tool, and hands
 * the stage that catalogue's vocabulary so its side is prepared before the model searches. Deferred
 * built-ins alone (a handful with plain names) do not start it: the table is 2.7 MB that a session
 * without MCP servers never needs. The index is built after the current task (a timer), so the request
 * being assembled is not held up. Returns `pool` unchanged; never throws.
 */
export function warmToolSearch<T extends readonly AnyTool[]>(
  pool: T,
  stage: SemanticStage | undefined = defaultSemanticStage(),
  sentence: SentenceStage | null | undefined = defaultSentenceStage(),
  glossaryStage: GlossaryStage | undefined = defaultGlossaryStage(),
): T {
  try {
    if (!pool.some((t) => t.isMcp && isDeferredTool(t))) return pool;
    const words = stage && stage.status().state !== 'failed' ? stage : undefined;
    const encoder = sentence && sentence.status().state !== 'failed' ? sentence : undefined;
    const deferred = pool.filter(isDeferredTool);
    const glossing = needsGlossary(deferred) ? glossaryStage : undefined;
    glossing?.warm();
    if (!words && !encoder) return pool;
    words?.warm();
    encoder?.warm();
    const prepare = (glossary: Glossary | undefined) => {
      try {
        const index = indexFor(deferred, glossary);
        if (index === preparedIndex) return;
        preparedIndex = index;
        const key = catalogueKey(index);
        void words?.expand(key, [...index.vocabulary.keys()], [], Number.POSITIVE_INFINITY);
        encoder?.prepare(key, sentenceToolsOf(index, deferred, glossary));
      } catch {
        // Preparing ahead is an optimisation: the first search prepares it otherwise.
      }
    };
    // With tools described in Chinese, the catalogue is prepared as searches will see it: glossed.
    if (glossing) void glossing.get(Number.POSITIVE_INFINITY).then(prepare);
    else setTimeout(() => prepare(undefined), 0);
  } catch {
    // Same: never in the way of a request.
  }
  return pool;
}

/** True when a deferred tool's description has Chinese in it (the glossary is then worth loading). */
function needsGlossary(deferred: readonly AnyTool[]): boolean {
  // A scan of the cached descriptions: a fraction of a millisecond for a thousand tools.
  return deferred.some((t) => hasHan(toolSearchDoc(t).description));
}

/**
 * The glossary for a search over `deferred`, when the catalogue or the query has Chinese in it, and what
 * the card says about it (nothing when no Chinese is involved). Never rejects.
 */
async function glossaryFor(
  stage: GlossaryStage | undefined,
  deferred: readonly AnyTool[],
  query: string,
): Promise<{ glossary?: Glossary; note?: string }> {
  if (!hasHan(query) && !needsGlossary(deferred)) return {};
  if (!stage) return {};
  const glossary = await stage.get(SEMANTIC_WAIT_MS);
  if (glossary) return { glossary, note: 'Chinese glossary used' };
  const status = stage.status();
  return {
    note:
      status.state === 'failed'
        ? `Chinese glossary not used: ${status.reason}`
        : 'Chinese glossary not used: still loading',
  };
}

/** The text the model sees: a summary line when nothing matched, then every note. */
export function resultText(output: ToolSearchOutput): string {
  // A server listing's notes say everything; other forms with no match get the summary line first.
  const summary = output.matches.length === 0 && output.form !== 'server';
  const lines: string[] = [];
  if (summary) {
    lines.push(
      output.totalDeferred === 0
        ? `No deferred tools match "${output.query}": none are available${output.connecting.length ? ' yet' : ''}.`
        : `No deferred tools match "${output.query}" (${output.totalDeferred} deferred tools are available). Try other keywords, "select:<exact name>" for a name from the announcements, or "mcp__<server>" to list a server's tools.`,
    );
  }
  lines.push(...output.notes);
  if (
    summary &&
    output.form !== 'keywords' &&
    output.connecting.length &&
    !output.notes.some((n) => n.includes('still connecting'))
  ) {
    lines.push(
      `MCP servers still connecting: ${output.connecting.join(', ')}. Their tools are not listed yet; search again once they are announced.`,
    );
  }
  return lines.join('\n');
}

export interface ToolSearchOptions {
  /** Names of MCP servers still connecting (their tools are not in the pool yet). */
  connectingServers?: () => readonly string[];
  /** The semantic stage (default: the page's worker stage; none in Node). null: lexical only. */
  semantic?: SemanticStage | null;
  /** The sentence encoder (default: the page's worker; none in Node). null: none. */
  sentence?: SentenceStage | null;
  /** The Chinese-English glossary (default: the page's, loaded on first need; none in Node). null: none. */
  glossary?: GlossaryStage | null;
  /**
   * Read at each search: false leaves the sentence encoder out (the user turned it off; the card says
   * so). Default: on.
   */
  sentenceEnabled?: () => boolean;
}

/** A ToolSearch tool; `connectingServers` lets its answers name servers still connecting. */
export function createToolSearchTool(options: ToolSearchOptions = {}) {
  const stageOf = () =>
    options.semantic === null ? undefined : (options.semantic ?? defaultSemanticStage());
  const sentenceOff = () => {
    try {
      return options.sentenceEnabled?.() === false;
    } catch {
      return false;
    }
  };
  const glossaryOf = () =>
    options.glossary === null ? undefined : (options.glossary ?? defaultGlossaryStage());
  const sentenceOf = () =>
    options.sentence === null || sentenceOff() ? undefined : (options.sentence ?? defaultSentenceStage());
  return buildTool<typeof inputSchema, ToolSearchOutput>({
    name: TOOL_SEARCH_TOOL_NAME,
    searchHint: 'find load deferred mcp tools schema',
    inputSchema,
    maxResultSizeChars: Number.POSITIVE_INFINITY,

    userFacingName: () => 'ToolSearch',
    description: () => 'Load deferred (MCP) tools by name, server or keywords so they can be called.',
    prompt: () => PROMPT,

    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),

    validateInput(input) {
      return input.query.trim() === ''
        ? 'The query is empty. Give keywords ("create issue"), "select:<exact tool name>", or "mcp__<server>".'
        : null;
    },

    async call(input, ctx) {
      const pool = ctx.options.tools;
      let connecting: string[] = [];
      try {
        connecting = [...(options.connectingServers?.() ?? [])];
      } catch {
        connecting = [];
      }
      const deferred = pool.filter(isDeferredTool);
      const stage = stageOf();
      const encoder = sentenceOf();
      if (deferred.length) {
        stage?.warm();
        encoder?.warm();
      }
      let expansions: Expansions | undefined;
      let semantic: string | undefined;
      let sentence: Map<string, number> | undefined;
      let glossary: Glossary | undefined;
      if (deferred.length && isKeywordQuery(pool, input.query)) {
        const glossed = await glossaryFor(glossaryOf(), deferred, input.query);
        glossary = glossed.glossary;
        const [words, meaning] = await Promise.all([
          semanticExpansions(stage, deferred, input.query, glossary),
          sentenceCosines(encoder, deferred, input.query, glossary),
        ]);
        ({ expansions } = words);
        sentence = meaning.sentence;
        const note = sentenceOff() ? SENTENCE_OFF_NOTE : meaning.note;
        semantic = [words.semantic, note, glossed.note].filter(Boolean).join('; ');
      }
      const { matches, notes, form } = searchTools(pool, input.query, input.max_results, {
        connecting,
        expansions,
        ...(sentence ? { sentence } : {}),
        ...(glossary ? { glossary } : {}),
      });
      return {
        data: {
          query: input.query,
          matches,
          totalDeferred: deferred.length,
          connecting,
          notes,
          form,
          ...(semantic ? { semantic } : {}),
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId) {
      if (output.matches.length === 0) return textResult(toolUseId, resultText(output));
      const content: unknown[] = output.matches.map(toolReferenceBlock);
      if (output.notes.length) content.push({ type: 'text', text: output.notes.join('\n') });
      return { type: 'tool_result', tool_use_id: toolUseId, content: content as never };
    },

    renderToolUseMessage(input) {
      return {
        title: 'ToolSearch',
        ...(input.query !== undefined ? { subtitle: input.query } : {}),
        body: { kind: 'none' },
      };
    },

    renderToolResultMessage(output) {
      const semantic = output.semantic ? `\nSemantic stage: ${output.semantic}` : '';
      if (output.matches.length === 0) return { kind: 'text', text: resultText(output) + semantic };
      const notes = output.notes.length ? `\n${output.notes.join('\n')}` : '';
      return { kind: 'text', text: `Loaded: ${output.matches.join(', ')}${notes}${semantic}` };
    },

    toAutoClassifierInput: (input) => input.query,
  });
}

/** The registry's ToolSearch (no connecting-servers provider; the session makes its own). */
export const ToolSearchTool = createToolSearchTool();
