/**
 * Request validation modeled on the real Messages API: the same checks that make the real API answer
 * 400 `invalid_request_error`, with messages following its wording. Pure functions, never throw.
 */

type Json = Record<string, unknown>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The real API's limit on blocks with `cache_control` (tools, system and message content together). */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface ValidateOptions {
  /** count_tokens requests need no `max_tokens`. */
  countTokens?: boolean;
  /**
   * False models an endpoint without tool search (an older API version, some gateways): `tool_reference`
   * blocks and `defer_loading` are unknown fields there and get a 400. Default true.
   */
  toolReference?: boolean;
  /** False models an endpoint without server tools: defining one is a 400 naming it. Default true. */
  serverTools?: boolean;
}

/** The content block types a tool_result accepts where tool_reference is unknown. */
const RESULT_TAGS = "'text', 'image', 'search_result', 'document'";

/**
 * Names of the tools the model can see in this request: those sent without `defer_loading`, plus deferred
 * ones a `tool_reference` in the messages expands (the API loads them where they are referenced).
 */
export function visibleToolNames(body: unknown): string[] {
  if (!isObject(body)) return [];
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject);
  const names = tools.filter((t) => t.defer_loading !== true).map((t) => String(t.name));
  const deferred = new Set(tools.filter((t) => t.defer_loading === true).map((t) => String(t.name)));
  for (const message of Array.isArray(body.messages) ? body.messages.filter(isObject) : []) {
    for (const block of blocksOf(message.content)) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const item of block.content.filter(isObject)) {
        const name = String(item.tool_name);
        if (item.type === 'tool_reference' && deferred.has(name) && !names.includes(name)) names.push(name);
      }
    }
  }
  return names;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A custom (client) tool: no `type`, or `type: 'custom'`. Server tools carry a versioned type. */
export function isCustomTool(tool: Json): boolean {
  return tool.type === undefined || tool.type === null || tool.type === 'custom';
}

/** The blocks of a message's content (a string content is one text block). */
export function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/**
 * Checks a /v1/messages (or count_tokens) body. Returns the error message of the first problem found,
 * or null when the request is acceptable.
 */
export function validateMessagesRequest(body: unknown, options: ValidateOptions = {}): string | null {
  if (!isObject(body)) return 'Input should be a valid dictionary or object to extract fields from';
  return (
    checkTopLevel(body, options) ??
    checkMessagesShape(body.messages as unknown[], options.toolReference !== false) ??
    checkSystem(body.system) ??
    checkTools(body.tools, options.toolReference !== false) ??
    checkServerTools(body.tools, options.serverTools !== false) ??
    checkServerToolBlocks(body.messages as Json[]) ??
    checkToolsNeeded(body) ??
    checkCacheControl(body) ??
    checkToolPairing(body.messages as Json[]) ??
    checkToolReferences(body)
  );
}

function checkTopLevel(body: Json, options: ValidateOptions): string | null {
  if (body.model === undefined) return 'model: Field required';
  if (typeof body.model !== 'string') return 'model: Input should be a valid string';
  if (!options.countTokens) {
    if (body.max_tokens === undefined) return 'max_tokens: Field required';
    if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) {
      return 'max_tokens: Input should be a valid integer';
    }
    if (body.max_tokens < 1) return 'max_tokens: Input should be greater than or equal to 1';
  }
  if (body.messages === undefined) return 'messages: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Input should be a valid list';
  if (body.messages.length === 0) return 'messages: at least one message is required';
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    return 'stream: Input should be a valid boolean';
  }
  return null;
}

function checkMessagesShape(messages: unknown[], toolReference: boolean): string | null {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObject(message)) return `messages.${i}: Input should be a valid dictionary`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    const finalAssistant = i === messages.length - 1 && message.role === 'assistant';
    const content = message.content;
    if (content === undefined) return `messages.${i}.content: Field required`;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      return `messages.${i}.content: Input should be a valid string or a valid list`;
    }
    if (content.length === 0 && !finalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (Array.isArray(content)) {
      for (let j = 0; j < content.length; j++) {
        const err = checkBlock(content[j], `messages.${i}.content.${j}`, message.role, toolReference);
        if (err) return err;
      }
    }
  }
  if ((messages[0] as Json).role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 1; i < messages.length; i++) {
    const role = (messages[i] as Json).role;
    if (role === (messages[i - 1] as Json).role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
  }
  return null;
}

function checkText(block: Json, path: string): string | null {
  if (typeof block.text !== 'string') return `${path}.text: Field required`;
  if (block.text.length === 0) return `${path}.text: text content blocks must be non-empty`;
  if (block.text.trim().length === 0)
    return `${path}.text: text content blocks must contain non-whitespace text`;
  return null;
}

function checkBlock(block: unknown, path: string, role: unknown, toolReference: boolean): string | null {
  if (!isObject(block)) return `${path}: Input should be a valid dictionary`;
  if (typeof block.type !== 'string') return `${path}.type: Field required`;
  switch (block.type) {
    case 'tool_reference':
      // Only tool_result content may hold a tool_reference.
      return `${path}: Input tag 'tool_reference' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'search_result', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'`;
    case 'text':
      return checkText(block, path);
    case 'tool_use':
      if (role !== 'assistant') return `${path}: \`tool_use\` blocks can only be in \`assistant\` messages`;
      if (typeof block.id !== 'string') return `${path}.id: Field required`;
      if (typeof block.name !== 'string') return `${path}.name: Field required`;
      if (!isObject(block.input)) return `${path}.input: Input should be a valid dictionary`;
      return null;
    case 'tool_result': {
      if (role !== 'user') return `${path}: \`tool_result\` blocks can only be in \`user\` messages`;
      if (typeof block.tool_use_id !== 'string') return `${path}.tool_use_id: Field required`;
      const inner = block.content;
      if (inner === undefined || typeof inner === 'string') return null;
      if (!Array.isArray(inner)) return `${path}.content: Input should be a valid string or a valid list`;
      for (let k = 0; k < inner.length; k++) {
        const item = inner[k];
        if (!isObject(item)) return `${path}.content.${k}: Input should be a valid dictionary`;
        if (item.type === 'text') {
          const err = checkText(item, `${path}.content.${k}`);
          if (err) return err;
        } else if (item.type === 'tool_reference' && !toolReference) {
          return `${path}.content.${k}: Input tag 'tool_reference' found using 'type' does not match any of the expected tags: ${RESULT_TAGS}`;
        } else if (item.type === 'tool_reference' && typeof item.tool_name !== 'string') {
          return `${path}.content.${k}.tool_name: Field required`;
        }
      }
      return null;
    }
    default:
      return null;
  }
}

function checkSystem(system: unknown): string | null {
  if (system === undefined || typeof system === 'string') return null;
  if (!Array.isArray(system)) return 'system: Input should be a valid string or a valid list';
  for (let i = 0; i < system.length; i++) {
    const block = system[i];
    if (!isObject(block) || block.type !== 'text') return `system.${i}.type: Input should be 'text'`;
    const err = checkText(block, `system.${i}`);
    if (err) return err;
  }
  return null;
}

function checkTools(tools: unknown, toolReference: boolean): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  const names = new Set<string>();
  let deferred = 0;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool)) return `tools.${i}: Input should be a valid dictionary`;
    if (isCustomTool(tool)) {
      const path = `tools.${i}.custom`;
      if (tool.name === undefined) return `${path}.name: Field required`;
      if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
        return `${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
      }
      if (tool.input_schema === undefined) return `${path}.input_schema: Field required`;
      if (!isObject(tool.input_schema)) return `${path}.input_schema: Input should be a valid dictionary`;
      if (tool.input_schema.type !== 'object') return `${path}.input_schema.type: Input should be 'object'`;
    } else if (typeof tool.name !== 'string') {
      return `tools.${i}.name: Field required`;
    }
    const name = tool.name as string;
    if (names.has(name)) return 'tools: Tool names must be unique.';
    names.add(name);
    if (tool.defer_loading !== undefined && !toolReference) {
      return `tools.${i}.custom.defer_loading: Extra inputs are not permitted`;
    }
    if (tool.defer_loading === true) {
      deferred++;
      if (tool.cache_control) {
        return `Tool '${name}' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.`;
      }
    }
  }
  if (tools.length > 0 && deferred === tools.length) {
    return 'At least one tool must have defer_loading=false. All tools cannot be deferred.';
  }
  return null;
}

/** The server tools the mock models: their versioned type and the name the API requires. */
export const SERVER_TOOL_NAMES: Readonly<Record<string, string>> = {
  web_search_20250305: 'web_search',
  web_fetch_20250910: 'web_fetch',
};

/** Web search and web fetch definitions as the API checks them; all server tools where none are offered. */
function checkServerTools(tools: unknown, offered: boolean): string | null {
  if (!Array.isArray(tools)) return null;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool) || isCustomTool(tool)) continue;
    const type = String(tool.type);
    if (!offered) {
      return `tools.${i}: Input tag '${type}' found using 'type' does not match any of the expected tags: 'custom'`;
    }
    const name = SERVER_TOOL_NAMES[type];
    if (!name) continue;
    if (tool.name !== name) return `tools.${i}.${type}.name: Input should be '${name}'`;
    if (tool.max_uses !== undefined && !(Number.isInteger(tool.max_uses) && (tool.max_uses as number) >= 1)) {
      return `tools.${i}.${type}.max_uses: Input should be greater than or equal to 1`;
    }
    if (Array.isArray(tool.allowed_domains) && Array.isArray(tool.blocked_domains)) {
      return `tools.${i}.${type}: Only one of allowed_domains or blocked_domains may be set`;
    }
  }
  return null;
}

/**
 * Server tool blocks in the messages: only from the assistant, and each result answering a
 * server_tool_use earlier in the same message.
 */
function checkServerToolBlocks(messages: Json[]): string | null {
  for (let i = 0; i < messages.length; i++) {
    const uses = new Set<string>();
    const blocks = blocksOf(messages[i].content);
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      const type = String(b.type);
      const isUse = type === 'server_tool_use';
      const isResult = type === 'web_search_tool_result' || type === 'web_fetch_tool_result';
      if (!isUse && !isResult) continue;
      if (messages[i].role !== 'assistant') {
        return `messages.${i}.content.${j}: \`${type}\` blocks can only be in \`assistant\` messages`;
      }
      if (isUse) {
        if (typeof b.id !== 'string') return `messages.${i}.content.${j}.id: Field required`;
        uses.add(b.id);
      } else if (typeof b.tool_use_id !== 'string' || !uses.has(b.tool_use_id)) {
        return `messages.${i}.content.${j}: \`${type}\` block must follow the \`server_tool_use\` block it answers (tool_use_id ${String(b.tool_use_id)})`;
      }
    }
  }
  return null;
}

function checkToolsNeeded(body: Json): string | null {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length > 0) return null;
  for (const message of body.messages as Json[]) {
    for (const block of blocksOf(message.content)) {
      if (block.type === 'tool_use' || block.type === 'tool_result') {
        return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
      }
    }
  }
  return null;
}

/** Number of blocks carrying `cache_control` across tools, system, message content (nested too). */
export function countCacheControl(body: Json): number {
  let count = body.cache_control ? 1 : 0;
  const visit = (blocks: unknown): void => {
    if (!Array.isArray(blocks)) return;
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.cache_control) count++;
      if (block.type === 'tool_result') visit(block.content);
    }
  };
  visit(body.tools);
  visit(body.system);
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (isObject(message)) visit(message.content);
  }
  return count;
}

function checkCacheControl(body: Json): string | null {
  const found = countCacheControl(body);
  if (found > MAX_CACHE_BREAKPOINTS) {
    return `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`;
  }
  return null;
}

function checkToolPairing(messages: Json[]): string | null {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') {
      const ids: string[] = [];
      for (let j = 0; j < blocks.length; j++) {
        if (blocks[j].type !== 'tool_use') continue;
        const id = blocks[j].id as string;
        if (seen.has(id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
        seen.add(id);
        ids.push(id);
      }
      if (ids.length === 0) continue;
      const next = messages[i + 1];
      const answered = new Set(
        next
          ? blocksOf(next.content)
              .filter((b) => b.type === 'tool_result')
              .map((b) => b.tool_use_id as string)
          : [],
      );
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
        );
      }
      // The results must open the next message, before any other content.
      const leading = next ? blocksOf(next.content).slice(0, ids.length) : [];
      if (leading.some((b) => b.type !== 'tool_result')) {
        return (
          `messages.${i + 1}: Did not find ${ids.length} \`tool_result\` block(s) at the beginning of this message. ` +
          'Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.'
        );
      }
    } else {
      const previous = i > 0 ? blocksOf(messages[i - 1].content) : [];
      const offered = new Set(previous.filter((b) => b.type === 'tool_use').map((b) => b.id as string));
      for (let j = 0; j < blocks.length; j++) {
        if (blocks[j].type !== 'tool_result') continue;
        const id = blocks[j].tool_use_id as string;
        if (!offered.has(id)) {
          return (
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
          );
        }
      }
    }
  }
  return null;
}

function checkToolReferences(body: Json): string | null {
  const defined = new Set((Array.isArray(body.tools) ? body.tools : []).map((t: Json) => t.name));
  const messages = body.messages as Json[];
  for (let i = 0; i < messages.length; i++) {
    const blocks = blocksOf(messages[i].content);
    for (let j = 0; j < blocks.length; j++) {
      const inner = blocks[j].type === 'tool_result' ? blocks[j].content : undefined;
      if (!Array.isArray(inner)) continue;
      for (let k = 0; k < inner.length; k++) {
        const item = inner[k] as Json;
        if (item.type === 'tool_reference' && !defined.has(item.tool_name)) {
          return `messages.${i}.content.${j}.content.${k}: Tool reference '${String(item.tool_name)}' not found in available tools.`;
        }
      }
    }
  }
  return null;
}

/** The beta the Claude API needs for `defer_loading` tools and `tool_reference` blocks. */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

/**
 * The 400 of a request that uses tool search (a `defer_loading` tool, a `tool_reference` block) without
 * the tool-search beta in its `anthropic-beta` header (comma-separated list); null when it is fine.
 */
export function checkToolSearchBeta(body: unknown, header: string | string[] | undefined): string | null {
  if (!isObject(body)) return null;
  const betas = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((b) => b.trim());
  if (betas.includes(TOOL_SEARCH_BETA)) return null;
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject);
  const i = tools.findIndex((t) => t.defer_loading !== undefined);
  if (i >= 0) {
    return `tools.${i}.custom.defer_loading: defer_loading requires the beta header 'anthropic-beta: ${TOOL_SEARCH_BETA}'`;
  }
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  for (let m = 0; m < messages.length; m++) {
    const blocks = blocksOf(messages[m].content);
    for (let j = 0; j < blocks.length; j++) {
      const inner = blocks[j].type === 'tool_result' ? blocks[j].content : undefined;
      if (Array.isArray(inner) && inner.some((x) => isObject(x) && x.type === 'tool_reference')) {
        return `messages.${m}.content.${j}: tool_reference blocks require the beta header 'anthropic-beta: ${TOOL_SEARCH_BETA}'`;
      }
    }
  }
  return null;
}
