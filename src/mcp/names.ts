/**
 * MCP tool names as the model sees them: `mcp__<server>__<tool>`, matching the Messages API's
 * ^[a-zA-Z0-9_-]{1,64}$. Names are normalized (other characters become `_`); a name that would be too
 * long keeps its head and gets a short hash of the original, so it stays unique and stable.
 */
import { hashString } from '../core/hash.ts';
import type { McpPromptInfo } from './catalog.ts';

/** The pattern every tool name sent to the API must match. */
export const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest tool name the API takes. */
export const MAX_TOOL_NAME_CHARS = 64;
/** Longest server name kept (so a tool part of at least 33 characters always fits). */
export const MAX_SERVER_NAME_CHARS = 24;

const PREFIX = 'mcp__';
const SEPARATOR = '__';

/** `name` with every character outside [a-zA-Z0-9_-] replaced by `_`. */
export function normalizeNamePart(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * The normalized server name: characters outside [a-zA-Z0-9_-] become `_`, runs of `_` collapse to one
 * and leading or trailing ones are dropped (so the `__` separator of `mcp__<server>__<tool>` never
 * occurs inside or next to the server part: `docs__admin` cannot pose as server `docs`), cut to
 * MAX_SERVER_NAME_CHARS. Throws when nothing usable is left (an empty name).
 */
export function normalizeServerName(name: string): string {
  const trimEdges = (s: string) => s.replace(/_{2,}/g, '_').replace(/^_+|_+$/g, '');
  const out = trimEdges(trimEdges(normalizeNamePart(name.trim())).slice(0, MAX_SERVER_NAME_CHARS));
  if (!out) throw new Error(`Invalid MCP server name "${name}": use letters, digits, _ or -.`);
  return out;
}

/** `mcp__<server>` — the prefix every tool of a server shares (also a blanket permission rule). */
export function serverPrefix(server: string): string {
  return `${PREFIX}${server}${SEPARATOR}`;
}

/**
 * The API name of `tool` on the (already normalized) `server`. Deterministic; at most 64 characters.
 * When the full name is too long, the tool part is cut and `_<8 hex of hash(tool)>` appended.
 */
export function mcpToolName(server: string, tool: string): string {
  const prefix = serverPrefix(server);
  const part = normalizeNamePart(tool) || '_';
  const full = prefix + part;
  if (full.length <= MAX_TOOL_NAME_CHARS) return full;
  const suffix = `_${hashString(tool).slice(0, 8)}`;
  return prefix + part.slice(0, MAX_TOOL_NAME_CHARS - prefix.length - suffix.length) + suffix;
}

/** A unique variant of `name` (which collided with a name already used): the head plus a hash of `seed`. */
export function disambiguate(name: string, seed: string, taken: ReadonlySet<string>): string {
  for (let i = 0; ; i++) {
    const suffix = `_${hashString(`${seed}#${i}`).slice(0, 8)}`;
    const candidate = name.slice(0, MAX_TOOL_NAME_CHARS - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Splits `mcp__server__tool` into its parts, or null when `name` is not an MCP tool name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(PREFIX)) return null;
  const rest = name.slice(PREFIX.length);
  const at = rest.indexOf(SEPARATOR);
  if (at <= 0) return null;
  return { server: rest.slice(0, at), tool: rest.slice(at + SEPARATOR.length) };
}

/** The slash command of a prompt: `mcp__<server>__<prompt>`. */
export function promptCommand(p: Pick<McpPromptInfo, 'server' | 'name'>): string {
  return `mcp__${p.server}__${normalizeNamePart(p.name)}`;
}
