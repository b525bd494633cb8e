/**
 * MCP content → tool_result content, faithfully: every content kind has a mapping, and what cannot be
 * sent says so plainly instead of vanishing.
 *
 * - text → text; image → an image block when it really is PNG, JPEG, GIF or WebP (sniffed from its
 *   bytes, not trusted from `mimeType`) and its base64 fits API_IMAGE_MAX_BASE64_CHARS (the API's
 *   limit) and its header's width and height the API's pixel limits (image-dimensions.ts: 8000 px,
 *   2000 px in a result of more than 20 images, at most 100 images), else downscaled (in the page) or a
 *   note with its type and size; audio → a note;
 * - resource_link → a line naming the server and URI, readable with ReadMcpResource;
 * - embedded resources: text → text; a blob of a text type → its decoded text; an image blob → an
 *   image block (same checks); any other blob → a note with its type and size;
 * - content annotated for the user's audience only is shown in the page, never sent to the model;
 * - `structuredContent` is sent when it adds something (no content, or no text block carries the same
 *   JSON); an error with no content says so.
 *
 * A result that is not valid MCP (content not a list, an item of no known type or with a field of the
 * wrong type) becomes an error result naming the problem. Mapping never throws, whatever the server sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { API_IMAGE_MAX_BASE64_CHARS } from '../core/constants.ts';
import type { ToolResultBlockParam } from '../core/tool.ts';
import {
  API_IMAGE_MAX_SIDE_PX,
  API_MANY_IMAGES_MAX_SIDE_PX,
  API_MANY_IMAGES_THRESHOLD,
  API_MAX_IMAGES_PER_REQUEST,
  type ImageSize,
  imageDimensions,
} from './image-dimensions.ts';

/** A block of tool_result content: text or image. */
export type McpResultBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

/** What an MCP tool call returns (the Tool's Output). */
export interface McpToolOutput {
  /** The result as the model sees it. */
  blocks: McpResultBlock[];
  /** Text shown only in the page (content whose audience is the user alone). */
  userText?: string[];
  /** The server flagged the result as an error (`isError: true`). */
  isError: boolean;
  /** The server's structuredContent, kept for callers. */
  structuredContent?: unknown;
  /** The server's `_meta`, passed through as ToolResult.mcpMeta. */
  meta?: Record<string, unknown>;
}

/** Shrinks an image to fit the size limit; resolves null when it cannot (Node, or not decodable). */
export type ImageDownscaler = (
  data: string,
  mimeType: ApiImageType,
  maxBytes: number,
) => Promise<{ data: string; mimeType: ApiImageType } | null>;

export interface MapResultOptions {
  /** Names the tool in notes, e.g. "echo (MCP server everything)". */
  displayName: string;
  /** The server, so resource links say where to read them. */
  server: string;
  downscale?: ImageDownscaler;
  /** The longest side an image may have (px); API_IMAGE_MAX_SIDE_PX unless the result has many images. */
  maxImageSide?: number;
}

export type ApiImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const text = (t: string): Anthropic.TextBlockParam => ({ type: 'text', text: t });

/** Decoded size of base64 data (bytes). */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

/** "12.3 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes of base64 data, or null when it is not base64. */
function decodeBase64(data: string): Uint8Array | null {
  try {
    const bin = atob(data.replace(/\s+/g, ''));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** The image type the bytes start with, or null when they are none the API takes. */
export function sniffImageType(data: string): ApiImageType | null {
  const head = decodeBase64(data.replace(/\s+/g, '').slice(0, 24));
  if (!head || head.length < 12) return null;
  const b = head;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'image/gif';
  const ascii = (i: number, n: number) => String.fromCharCode(...b.slice(i, i + n));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return 'image/webp';
  return null;
}

/** MIME types whose bytes are text. */
export function isTextMime(mime: string | undefined): boolean {
  if (!mime) return false;
  const m = mime.toLowerCase().split(';')[0].trim();
  return (
    m.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql|x-www-form-urlencoded)$/.test(
      m,
    ) ||
    m.endsWith('+json') ||
    m.endsWith('+xml')
  );
}

/** The UTF-8 text of base64 data, or null when it is not valid UTF-8. */
function decodeText(data: string): string | null {
  const bytes = decodeBase64(data);
  if (!bytes) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** An image block for base64 `data`, or a note saying why it is not sent. */
async function imageBlock(
  data: string,
  declared: string | undefined,
  what: string,
  opts: MapResultOptions,
): Promise<McpResultBlock> {
  const type = declared ?? 'unknown type';
  const bytes = base64Bytes(data);
  const sniffed = data ? sniffImageType(data) : null;
  if (!sniffed) {
    const takes = /^image\/(png|jpeg|gif|webp)$/.test(declared ?? '')
      ? 'its data is not a valid image of that type'
      : 'the model takes PNG, JPEG, GIF or WebP';
    return text(`[${what} of type ${type} (${formatBytes(bytes)}) omitted: ${takes}]`);
  }
  const clean = data.replace(/\s+/g, '');
  const maxSide = opts.maxImageSide ?? API_IMAGE_MAX_SIDE_PX;
  // An image whose header cannot be read is left to the API (which reads more of it than we do).
  const fitsSide = (size: ImageSize | null) => !size || (size.width <= maxSide && size.height <= maxSide);
  const size = imageDimensions(clean, sniffed);
  // The API limits the base64 form (5 MB), not the decoded bytes.
  if (clean.length <= API_IMAGE_MAX_BASE64_CHARS && fitsSide(size)) {
    return { type: 'image', source: { type: 'base64', media_type: sniffed, data: clean } };
  }
  const maxBytes = Math.floor((API_IMAGE_MAX_BASE64_CHARS * 3) / 4);
  const smaller = await opts.downscale?.(clean, sniffed, maxBytes).catch(() => null);
  if (
    smaller &&
    smaller.data.length <= API_IMAGE_MAX_BASE64_CHARS &&
    fitsSide(imageDimensions(smaller.data, smaller.mimeType))
  ) {
    return { type: 'image', source: { type: 'base64', media_type: smaller.mimeType, data: smaller.data } };
  }
  const tooBig = clean.length > API_IMAGE_MAX_BASE64_CHARS;
  // The pixel size is named when it is the reason.
  const pixels = size && !tooBig ? `${size.width}×${size.height} px, ` : '';
  const why = tooBig
    ? `larger than the ${formatBytes(API_IMAGE_MAX_BASE64_CHARS)} of base64 the API takes`
    : `larger than the ${maxSide} × ${maxSide} px the API takes${
        maxSide < API_IMAGE_MAX_SIDE_PX
          ? ` when a request carries more than ${API_MANY_IMAGES_THRESHOLD} images (this result has more)`
          : ''
      }`;
  return text(
    `[${what} (${sniffed}, ${pixels}${formatBytes(bytes)}) omitted: ${why}${
      opts.downscale ? ', and it could not be downscaled' : ' (it could not be downscaled here)'
    }]`,
  );
}

/** True when `item` (an MCP content item) would become an image block if it is a valid image. */
function isImageItem(item: unknown): boolean {
  if (!isObject(item)) return false;
  if (item.type === 'image') return true;
  const res = isObject(item.resource) ? item.resource : undefined;
  return (
    item.type === 'resource' && typeof res?.blob === 'string' && /^image\//i.test(str(res.mimeType) ?? '')
  );
}

/** Who may see a content item: 'model' (assistant), 'user', or both. */
function audienceOf(item: Json): { model: boolean; user: boolean } {
  const ann = isObject(item.annotations) ? item.annotations : undefined;
  const audience = Array.isArray(ann?.audience)
    ? ann.audience.filter((a) => typeof a === 'string')
    : undefined;
  if (!audience || audience.length === 0) return { model: true, user: true };
  return { model: audience.includes('assistant'), user: audience.includes('user') };
}

/** A resource link as the model reads it (and can open with ReadMcpResource). */
function resourceLinkText(item: Json, server: string): string {
  const name = str(item.title) ?? str(item.name) ?? 'resource';
  const uri = str(item.uri) ?? '?';
  const mime = str(item.mimeType);
  const parts = [`[Resource link: ${name} <${uri}>${mime ? ` (${mime})` : ''}]`];
  const desc = str(item.description);
  if (desc) parts.push(desc);
  parts.push(`Read it with ReadMcpResource {"server": "${server}", "uri": "${uri}"}.`);
  return parts.join('\n');
}

/** One MCP content item → a result block. */
export async function mapContentItem(item: unknown, opts: MapResultOptions): Promise<McpResultBlock> {
  if (!isObject(item)) return text(`[Unreadable content item: ${JSON.stringify(item) ?? String(item)}]`);
  switch (item.type) {
    case 'text':
      return text(str(item.text) ?? '');
    case 'image':
      return imageBlock(str(item.data) ?? '', str(item.mimeType), 'Image', opts);
    case 'audio':
      return text(
        `[Audio (${str(item.mimeType) ?? 'unknown type'}, ${formatBytes(base64Bytes(str(item.data) ?? ''))}) omitted: the model does not take audio]`,
      );
    case 'resource_link':
      return text(resourceLinkText(item, opts.server));
    case 'resource': {
      const res = isObject(item.resource) ? item.resource : {};
      const uri = str(res.uri) ?? '?';
      const mime = str(res.mimeType);
      const head = `[Resource ${uri}${mime ? ` (${mime})` : ''}]`;
      if (typeof res.text === 'string') return text(`${head}\n${res.text}`);
      const blob = str(res.blob) ?? '';
      if (mime?.toLowerCase().startsWith('image/')) return imageBlock(blob, mime, `Resource ${uri}`, opts);
      if (isTextMime(mime)) {
        const decoded = decodeText(blob);
        if (decoded !== null) return text(`${head}\n${decoded}`);
      }
      return text(
        `[Binary resource ${uri} (${mime ?? 'unknown type'}, ${formatBytes(base64Bytes(blob))}) not shown: its bytes are not text]`,
      );
    }
    default:
      return text(`[Content of type ${String(item.type)}]\n${JSON.stringify(item)}`);
  }
}

/**
 * A resources/read result → blocks: each content as an embedded resource would be (text, decoded text
 * blobs, images, notes for other blobs). Never throws.
 */
export async function mapResourceContents(
  result: unknown,
  opts: MapResultOptions,
): Promise<McpResultBlock[]> {
  const r = isObject(result) ? result : {};
  const contents = Array.isArray(r.contents) ? r.contents : [];
  const out: McpResultBlock[] = [];
  for (const c of contents) out.push(await mapContentItem({ type: 'resource', resource: c }, opts));
  return out.length ? out : [text(`${opts.displayName} has no contents.`)];
}

/** JSON with object keys sorted, to compare values regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** True when some text block already carries `structured` as its JSON. */
function textCarries(blocks: McpResultBlock[], structured: unknown): boolean {
  const want = canonical(structured);
  return blocks.some((b) => {
    if (b.type !== 'text') return false;
    try {
      return canonical(JSON.parse(b.text)) === want;
    } catch {
      return false;
    }
  });
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The string fields each content type must have (MCP 2025-06-18). */
const REQUIRED_STRINGS: Record<string, string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/** Why one content item is malformed, or null. */
function itemProblem(item: unknown, at: string): string | null {
  if (!isObject(item)) return `${at} is ${kindOf(item)}, not an object`;
  const type = item.type;
  if (typeof type !== 'string' || !(type in REQUIRED_STRINGS)) {
    return `${at} has type ${JSON.stringify(type) ?? 'none'}, which MCP does not define (${Object.keys(REQUIRED_STRINGS).join(', ')})`;
  }
  for (const field of REQUIRED_STRINGS[type]) {
    if (typeof item[field] !== 'string') {
      return `${at} (${type}): its "${field}" is ${item[field] === undefined ? 'missing' : kindOf(item[field])}, not a string`;
    }
  }
  if (type === 'resource') {
    const res = item.resource;
    if (!isObject(res)) return `${at} (resource): its "resource" is ${kindOf(res)}, not an object`;
    if (typeof res.uri !== 'string') return `${at} (resource): its resource has no string "uri"`;
    if (typeof res.text !== 'string' && typeof res.blob !== 'string') {
      return `${at} (resource): its resource has neither a string "text" nor a string "blob"`;
    }
  }
  return null;
}

/** Why a tools/call result is malformed (the first problem found), or null. Never throws. */
export function callResultProblem(result: unknown): string | null {
  if (!isObject(result)) return `the result is ${kindOf(result)}, not an object`;
  if (result.isError !== undefined && typeof result.isError !== 'boolean') {
    return `"isError" is ${kindOf(result.isError)}, not a boolean`;
  }
  // Missing content is read as none (the SDK's default); legacy servers send { toolResult }.
  if (result.content === undefined) return null;
  if (!Array.isArray(result.content)) return `content is ${kindOf(result.content)}, not a list`;
  for (let i = 0; i < result.content.length; i++) {
    const problem = itemProblem(result.content[i], `content[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/**
 * A raw tools/call result → output; a malformed one (see callResultProblem) → an error output that
 * says what is wrong, so the model is told at once. Never throws.
 */
export async function mapCallResult(result: unknown, opts: MapResultOptions): Promise<McpToolOutput> {
  const problem = callResultProblem(result);
  if (problem) {
    return {
      blocks: [text(`${opts.displayName} sent a malformed result (not valid MCP): ${problem}.`)],
      isError: true,
    };
  }
  const r = result as Json;
  const content = Array.isArray(r.content) ? r.content : [];
  const blocks: McpResultBlock[] = [];
  const userText: string[] = [];
  // The API's per-request image limits, applied to this result (image-dimensions.ts has the source):
  // past API_MANY_IMAGES_THRESHOLD images each must fit the smaller side; past the count, notes.
  const modelImages = content.filter((item) => isImageItem(item) && audienceOf(item as Json).model).length;
  const itemOpts =
    modelImages > API_MANY_IMAGES_THRESHOLD
      ? {
          ...opts,
          maxImageSide: Math.min(opts.maxImageSide ?? API_IMAGE_MAX_SIDE_PX, API_MANY_IMAGES_MAX_SIDE_PX),
        }
      : opts;
  let imagesSent = 0;
  for (const item of content) {
    const who = isObject(item) ? audienceOf(item) : { model: true, user: true };
    if (who.model && isImageItem(item) && imagesSent >= API_MAX_IMAGES_PER_REQUEST) {
      const mime =
        str((item as Json).mimeType) ?? str(((item as Json).resource as Json | undefined)?.mimeType);
      blocks.push(
        text(
          `[Image (${mime ?? 'unknown type'}) omitted: the API takes at most ${API_MAX_IMAGES_PER_REQUEST} images in a request, and this result has ${modelImages}]`,
        ),
      );
      continue;
    }
    const block = await mapContentItem(item, itemOpts);
    if (who.model && block.type === 'image') imagesSent++;
    if (who.model) blocks.push(block);
    else if (who.user) userText.push(block.type === 'text' ? block.text : '[image for the user]');
  }
  const structured = r.structuredContent;
  if (structured !== undefined && structured !== null) {
    if (blocks.length === 0) blocks.push(text(JSON.stringify(structured, null, 2)));
    else if (!textCarries(blocks, structured)) {
      blocks.push(text(`Structured content:\n${JSON.stringify(structured, null, 2)}`));
    }
  }
  // Legacy (protocol 2024-10-07) servers answer { toolResult }.
  if (blocks.length === 0 && r.toolResult !== undefined) {
    blocks.push(
      text(typeof r.toolResult === 'string' ? r.toolResult : JSON.stringify(r.toolResult, null, 2)),
    );
  }
  const isError = r.isError === true;
  if (blocks.length === 0) {
    const shown = userText.length ? ' (it showed a message to the user only)' : '';
    blocks.push(
      text(
        isError
          ? `${opts.displayName} failed and gave no details${shown}.`
          : `${opts.displayName} completed with no content${shown}.`,
      ),
    );
  }
  return {
    blocks,
    ...(userText.length ? { userText } : {}),
    isError,
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    ...(isObject(r._meta) ? { meta: r._meta } : {}),
  };
}

/**
 * The tool_result block: a single string when every block is text (the spill mechanism measures and
 * previews it as one text), else the block list. `is_error` set when the server flagged an error.
 */
export function toToolResultBlock(output: McpToolOutput, toolUseId: string): ToolResultBlockParam {
  const allText = output.blocks.every((b) => b.type === 'text');
  const content = allText
    ? output.blocks.map((b) => (b as Anthropic.TextBlockParam).text).join('\n')
    : output.blocks.map((b) => ({ ...b }));
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(output.isError ? { is_error: true } : {}),
  };
}

/** A plain-text rendering of the output for the page (images noted, user-only text included). */
export function outputText(output: McpToolOutput): string {
  const model = output.blocks.map((b) =>
    b.type === 'text'
      ? b.text
      : `[image ${b.source.type === 'base64' ? `${b.source.media_type}, ${formatBytes(base64Bytes(b.source.data))}` : ''}]`,
  );
  return [...(output.userText ?? []), ...model].join('\n');
}
