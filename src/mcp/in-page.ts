/**
 * In-page MCP transports: the host page runs an MCP server in the same page (or in a worker or an
 * iframe) and tabcode's client talks to it without any network.
 *
 * - `MessagePortTransport`: JSON-RPC over a MessagePort (one end of a MessageChannel, which can be
 *   handed to a worker or an iframe with postMessage). Each side wraps its own port.
 * - `inPageServer(name, start)`: a ready config. On every connect it makes a fresh linked pair
 *   (in memory, or a MessageChannel), hands one end to `start` (e.g. `server.connect(t)` of an
 *   McpServer) and gives the other to the client.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpInPageServerConfig } from './types.ts';

/** The control message one side sends the other when it closes. */
const CLOSE_SIGNAL = { 'tabcode/mcp-port': 'close' } as const;

function isCloseSignal(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Record<string, unknown>)['tabcode/mcp-port'] === 'close'
  );
}

function isJsonRpc(data: unknown): data is JSONRPCMessage {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>).jsonrpc === '2.0';
}

/**
 * An MCP Transport over a MessagePort. Messages are structured-cloned JSON-RPC objects. Closing one
 * side closes the other (a control message), and both report onclose once.
 */
export class MessagePortTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  private closed = false;
  private started = false;

  constructor(private readonly port: MessagePort) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('MessagePortTransport already started');
    this.started = true;
    this.port.onmessage = (event: MessageEvent) => {
      const data: unknown = event.data;
      if (isCloseSignal(data)) {
        void this.finish();
        return;
      }
      if (!isJsonRpc(data)) {
        this.onerror?.(new Error(`MessagePortTransport: not a JSON-RPC message: ${JSON.stringify(data)}`));
        return;
      }
      this.onmessage?.(data);
    };
    this.port.onmessageerror = () =>
      this.onerror?.(new Error('MessagePortTransport: a message could not be read'));
    this.port.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('MessagePortTransport is closed');
    this.port.postMessage(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      this.port.postMessage(CLOSE_SIGNAL);
    } catch {
      // The other side may be gone already.
    }
    await this.finish();
  }

  private async finish(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.port.onmessage = null;
    this.port.close();
    this.onclose?.();
  }
}

/** Connects a server-side transport (e.g. `(t) => mcpServer.connect(t)`); may be async. */
export type StartInPageServer = (serverTransport: Transport) => void | Promise<void>;

/**
 * A config for a server the host page runs itself. `start` gets a fresh server-side transport on
 * every (re)connect, so a server factory fits best: `(t) => createMyServer().connect(t)`.
 * `channel`: 'memory' (default; InMemoryTransport) or 'message-port' (a MessageChannel).
 */
export function inPageServer(
  name: string,
  start: StartInPageServer,
  options: { channel?: 'memory' | 'message-port' } & Pick<
    McpInPageServerConfig,
    'connectTimeoutMs' | 'toolTimeoutMs' | 'source'
  > = {},
): McpInPageServerConfig {
  const { channel = 'memory', ...rest } = options;
  return {
    ...rest,
    name,
    type: 'in-page',
    source: rest.source ?? 'host',
    async connect() {
      if (channel === 'message-port') {
        const { port1, port2 } = new MessageChannel();
        await start(new MessagePortTransport(port1));
        return new MessagePortTransport(port2);
      }
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await start(serverSide);
      return clientSide;
    },
  };
}
