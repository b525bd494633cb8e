/**
 * Hostile shapes of model output, caught before anything else touches them. A tool_use input comes
 * from the endpoint as JSON: it may be nested thousands of levels deep (a recursive walk anywhere later
 * — validation, hashing, saving, rendering — then overflows the stack on every request), be longer or
 * larger than any real call, or carry lone UTF-16 surrogates (not valid Unicode: the API refuses the
 * request that echoes them back). Such an input is refused: the call gets an is_error naming the
 * problem, and the transcript keeps a one-field marker instead of the input, so the next request is
 * valid. Text blocks keep their words with lone surrogates replaced by U+FFFD.
 *
 * Every walk here is iterative and bounded by the limits, so the checks themselves cannot overflow.
 */
import { MAX_TOOL_INPUT_CHARS, MAX_TOOL_INPUT_DEPTH, MAX_TOOL_INPUT_VALUES } from './constants.ts';
import { messageOf } from './errors.ts';
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from './messages.ts';

/** The one field of the marker that replaces a refused input in the transcript. */
export const REFUSED_INPUT_FIELD = 'tabcode_refused_input';

export interface InputShapeLimits {
  maxDepth: number;
  maxChars: number;
  maxValues: number;
}

export const DEFAULT_INPUT_SHAPE_LIMITS: InputShapeLimits = {
  maxDepth: MAX_TOOL_INPUT_DEPTH,
  maxChars: MAX_TOOL_INPUT_CHARS,
  maxValues: MAX_TOOL_INPUT_VALUES,
};

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** True when `text` has an unpaired surrogate. Linear. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** `text` with every unpaired surrogate replaced by U+FFFD (String.prototype.toWellFormed). */
export function wellFormed(text: string): string {
  return hasLoneSurrogate(text) ? text.replace(LONE_SURROGATES, '\uFFFD') : text;
}

const fmt = (n: number) => n.toLocaleString('en-US');

interface Frame {
  value: unknown;
  depth: number;
  /** The field path, for messages (linked to the parent's, so nothing is copied per level). */
  path: PathLink | undefined;
}
interface PathLink {
  key: string;
  parent: PathLink | undefined;
}

/** `input.a.b[3]` style path of a field, its first 8 steps. */
function pathText(link: PathLink | undefined): string {
  const steps: string[] = [];
  for (let l = link; l; l = l.parent) steps.push(l.key);
  steps.reverse();
  const shown = steps.slice(0, 8).join('');
  return `input${shown}${steps.length > 8 ? '…' : ''}`;
}

const step = (key: string | number): string =>
  typeof key === 'number'
    ? `[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `.${key}`
      : `[${JSON.stringify(wellFormed(key).slice(0, 40))}]`;

/**
 * Why `input` is refused as a tool input, or null when its shape is fine: nested deeper than
 * `maxDepth` (the top-level object is depth 1), more than `maxChars` characters of strings and keys,
 * more than `maxValues` values, or a lone surrogate in a string or key. Iterative; never throws.
 */
export function toolInputProblem(
  input: unknown,
  limits: InputShapeLimits = DEFAULT_INPUT_SHAPE_LIMITS,
): string | null {
  const stack: Frame[] = [{ value: input, depth: 1, path: undefined }];
  let chars = 0;
  let values = 0;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as Frame;
    values++;
    if (values > limits.maxValues) {
      return `it has more than ${fmt(limits.maxValues)} values (the limit). Send a smaller input: put large data in a file and pass its path.`;
    }
    if (typeof value === 'string') {
      chars += value.length;
      if (chars > limits.maxChars) return tooLong(limits.maxChars);
      if (hasLoneSurrogate(value)) return loneSurrogate(path);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDepth) return tooDeep(limits.maxDepth);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], depth: depth + 1, path: { key: step(i), parent: path } });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      chars += key.length;
      if (chars > limits.maxChars) return tooLong(limits.maxChars);
      const link: PathLink = { key: step(key), parent: path };
      if (hasLoneSurrogate(key)) return loneSurrogate(link);
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: link });
    }
  }
  return null;
}

/**
 * Longest tool-input JSON text parsed at all, in characters. A JSON text may be up to six times its
 * string content (`\u0000` escapes), so no input within MAX_TOOL_INPUT_CHARS is longer than this.
 */
export const MAX_TOOL_INPUT_JSON_CHARS = 6 * MAX_TOOL_INPUT_CHARS + 65_536;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why a tool input's JSON text is refused before it is parsed, or null when it may be parsed: longer
 * than MAX_TOOL_INPUT_JSON_CHARS, or nested deeper than `maxDepth` (the same limit and message as
 * `toolInputProblem`). One pass over the text with no allocation, so a hostile input costs what its
 * length costs; the parsed value still goes through `toolInputProblem`. Never throws.
 */
export function toolInputJsonProblem(
  json: string,
  limits: InputShapeLimits = DEFAULT_INPUT_SHAPE_LIMITS,
): string | null {
  if (json.length > MAX_TOOL_INPUT_JSON_CHARS) {
    return `its JSON is longer than ${fmt(MAX_TOOL_INPUT_JSON_CHARS)} characters (the limit). Send less at once: write large content in parts (Write the first part, then Edit to add the rest).`;
  }
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      // A string is skipped in native jumps to its next quote (a 2 MB Write is mostly one string): the
      // quote ends it unless an odd run of backslashes escapes it.
      let end = json.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (json.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = json.indexOf('"', end + 1);
      }
      if (end === -1) break;
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limits.maxDepth) return tooDeep(limits.maxDepth);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return null;
}

function tooDeep(max: number): string {
  return `it is nested more than ${fmt(max)} levels deep (the limit). Send a flatter input: pass deeply nested data as a JSON string or in a file.`;
}

/**
 * A streamed tool input's JSON text as the input to keep: `{}` for no text (a call without
 * arguments), the refused-input marker when the text has a hostile shape or is not JSON, else the
 * parsed value. Parses once, after the linear checks of `toolInputJsonProblem`. Never throws.
 */
export function parseToolInputJson(json: string): unknown {
  if (json.trim() === '') return {};
  const problem = toolInputJsonProblem(json);
  if (problem !== null) return { [REFUSED_INPUT_FIELD]: problem };
  try {
    return JSON.parse(json);
  } catch (err) {
    return {
      [REFUSED_INPUT_FIELD]: `its JSON could not be parsed (${messageOf(err).slice(0, 200)}). Send the call again with valid JSON.`,
    };
  }
}

function tooLong(max: number): string {
  return `it is longer than ${fmt(max)} characters (the limit). Send less at once: write large content in parts (Write the first part, then Edit to add the rest).`;
}

function loneSurrogate(path: PathLink | undefined): string {
  return `${pathText(path)} contains a lone UTF-16 surrogate (half of a character: not valid Unicode). Send the text again as valid Unicode.`;
}

/** The problem a refused-input marker carries, or undefined when `input` is no marker. */
export function refusedInputProblem(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const keys = Object.keys(input);
  if (keys.length !== 1 || keys[0] !== REFUSED_INPUT_FIELD) return undefined;
  const problem = (input as Record<string, unknown>)[REFUSED_INPUT_FIELD];
  return typeof problem === 'string' ? problem : undefined;
}

/** The message an is_error result gives for a refused input. */
export function refusedInputMessage(toolName: string, problem: string): string {
  return `InputValidationError: ${toolName}'s input was refused before it ran: ${problem}`;
}

/**
 * An assistant message's blocks made safe to keep and send again: a tool_use whose input has a hostile
 * shape gets the refused-input marker as its input (the call then fails with the problem), text blocks
 * lose their lone surrogates. Blocks that are fine are returned as they are (same objects). Never throws.
 */
export function guardContent(content: readonly ContentBlockParam[]): ContentBlockParam[] {
  let changed = false;
  const out = content.map((block): ContentBlockParam => {
    if (block.type === 'tool_use') {
      if (refusedInputProblem(block.input) !== undefined) return block;
      const problem = toolInputProblem(block.input);
      if (problem === null) return block;
      changed = true;
      return { ...block, input: { [REFUSED_INPUT_FIELD]: problem } };
    }
    if (block.type === 'text' && hasLoneSurrogate(block.text)) {
      changed = true;
      return { ...block, text: wellFormed(block.text) };
    }
    return block;
  });
  return changed ? out : (content as ContentBlockParam[]);
}

/**
 * A tool_result as it may be kept and sent: lone surrogates in its text (an MCP server's, a file's)
 * replaced by U+FFFD. The same object when nothing changes. Never throws.
 */
export function guardResultBlock(block: ToolResultBlockParam): ToolResultBlockParam {
  const { content } = block;
  if (typeof content === 'string') {
    return hasLoneSurrogate(content) ? { ...block, content: wellFormed(content) } : block;
  }
  if (!Array.isArray(content) || !content.some((b) => b.type === 'text' && hasLoneSurrogate(b.text))) {
    return block;
  }
  return {
    ...block,
    content: content.map((b) => (b.type === 'text' ? { ...b, text: wellFormed(b.text) } : b)),
  };
}

/** `messages` with every assistant message guarded (a stored or imported transcript). Never throws. */
export function guardTranscript(messages: readonly MessageParam[]): MessageParam[] {
  return messages.map((m) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return m;
    const content = guardContent(m.content);
    return content === m.content ? m : { ...m, content };
  });
}
