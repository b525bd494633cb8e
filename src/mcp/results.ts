/**
 * MCP tools/call results → tool_result content. Text stays text; images the API takes (PNG, JPEG, GIF,
 * WebP) become image blocks; everything else (resource links, embedded resources, audio, other image
 * types, unknown content) becomes a text line the model can read. Mapping never throws, whatever the
 * server sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolResultBlockParam } from '../core/tool.ts';

/** A block of tool_result content: text or image. */
export type McpResultBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam;

/** What an MCP tool call returns (the Tool's Output). */
export interface McpToolOutput {
  /** The result as the model sees it. */
  blocks: McpResultBlock[];
  /** The server flagged the result as an error (`isError: true`). */
  isError: boolean;
  /** The server's structuredContent, kept for callers (the model sees it only when content is empty). */
  structuredContent?: unknown;
  /** The server's `_meta`, passed through as ToolResult.mcpMeta. */
  meta?: Record<string, unknown>;
}

const API_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Approximate decoded size of base64 data, e.g. "12.3 KB". */
function base64Size(data: string): string {
  const bytes = Math.floor((data.replace(/=+$/, '').length * 3) / 4);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function text(t: string): Anthropic.TextBlockParam {
  return { type: 'text', text: t };
}

/** One MCP content item → a result block. */
export function mapContentItem(item: unknown): McpResultBlock {
  if (!isObject(item)) return text(`[Unreadable content item: ${JSON.stringify(item) ?? String(item)}]`);
  switch (item.type) {
    case 'text':
      return text(str(item.text) ?? '');
    case 'image': {
      const data = str(item.data) ?? '';
      const mime = str(item.mimeType) ?? 'application/octet-stream';
      if (API_IMAGE_TYPES.has(mime) && data) {
        return {
          type: 'image',
          source: { type: 'base64', media_type: mime as 'image/png', data },
        };
      }
      return text(
        `[Image of type ${mime} (${base64Size(data)}) omitted: the model takes PNG, JPEG, GIF or WebP]`,
      );
    }
    case 'audio':
      return text(
        `[Audio (${str(item.mimeType) ?? 'unknown type'}, ${base64Size(str(item.data) ?? '')}) omitted]`,
      );
    case 'resource_link': {
      const parts = [
        `[Resource link: ${str(item.title) ?? str(item.name) ?? 'resource'} <${str(item.uri) ?? '?'}>`,
      ];
      if (item.mimeType) parts.push(` (${str(item.mimeType)})`);
      parts.push(']');
      if (item.description) parts.push(`\n${str(item.description)}`);
      return text(parts.join(''));
    }
    case 'resource': {
      const res = isObject(item.resource) ? item.resource : {};
      const uri = str(res.uri) ?? '?';
      const mime = str(res.mimeType);
      if (typeof res.text === 'string') {
        return text(`[Resource ${uri}${mime ? ` (${mime})` : ''}]\n${res.text}`);
      }
      const blob = str(res.blob) ?? '';
      return text(`[Binary resource ${uri} (${mime ?? 'unknown type'}, ${base64Size(blob)}) omitted]`);
    }
    default:
      return text(`[Content of type ${String(item.type)}]\n${JSON.stringify(item)}`);
  }
}

/**
 * A raw tools/call result (validated only as an object) → output. Empty content with
 * structuredContent gives the JSON of structuredContent; nothing at all gives a short note.
 */
export function mapCallResult(result: unknown, displayName: string): McpToolOutput {
  const r = isObject(result) ? result : {};
  const content = Array.isArray(r.content) ? r.content : [];
  const blocks = content.map(mapContentItem);
  if (blocks.length === 0 && r.structuredContent !== undefined) {
    blocks.push(text(JSON.stringify(r.structuredContent, null, 2)));
  }
  // Legacy (protocol 2024-10-07) servers answer { toolResult }.
  if (blocks.length === 0 && r.toolResult !== undefined) {
    blocks.push(
      text(typeof r.toolResult === 'string' ? r.toolResult : JSON.stringify(r.toolResult, null, 2)),
    );
  }
  if (blocks.length === 0) blocks.push(text(`${displayName} completed with no content.`));
  return {
    blocks,
    isError: r.isError === true,
    ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
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

/** A plain-text rendering of the output for the UI (images noted, not inlined). */
export function outputText(output: McpToolOutput): string {
  return output.blocks
    .map((b) =>
      b.type === 'text'
        ? b.text
        : `[image ${b.source.type === 'base64' ? `${b.source.media_type}, ${base64Size(b.source.data)}` : ''}]`,
    )
    .join('\n');
}
