/**
 * A stdio-to-HTTP gateway for tests: MCP servers that only speak stdio (server-filesystem,
 * server-memory, server-everything's default mode, …) made reachable from a browser page over
 * Streamable HTTP on loopback. Each HTTP session gets its own child process; JSON-RPC messages are
 * relayed both ways unchanged (the SDK's StdioClientTransport on one side, the HTTP host's server
 * transport on the other), and the child is stopped when the session ends or the gateway closes.
 *
 * A child that writes a line that is not a JSON-RPC message breaks the stdio contract, and the line
 * cannot be matched to a request: every request still waiting for an answer gets a JSON-RPC error
 * saying so at once (rather than waiting out the client's timeout).
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type ConnectableServer, type McpHttpHost, startMcpHttpHost } from './http-host.ts';

export interface StdioCommand {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface StdioGateway {
  url: string;
  host: McpHttpHost;
  /** Child processes started so far (one per session). */
  started(): number;
  close(): Promise<void>;
}

/** One session's bridge: the HTTP side's transport ↔ a fresh stdio child. */
function bridge(spec: StdioCommand, onStart: () => void): ConnectableServer {
  let child: StdioClientTransport | undefined;
  let http: Transport | undefined;
  return {
    async connect(transport) {
      http = transport;
      child = new StdioClientTransport({
        command: spec.command,
        args: spec.args ?? [],
        env: { ...(process.env as Record<string, string>), ...spec.env },
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        stderr: 'ignore',
      });
      const stdio = child;
      /** Requests relayed to the child and not answered yet. */
      const waiting = new Set<RequestId>();
      const idOf = (m: JSONRPCMessage): RequestId | undefined => ('id' in m ? m.id : undefined);
      stdio.onmessage = (message) => {
        const id = idOf(message);
        if (id !== undefined && !('method' in message)) waiting.delete(id);
        void http?.send(message).catch(() => {});
      };
      stdio.onerror = (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        for (const id of waiting) {
          const message = `The stdio server wrote a line that is not a JSON-RPC message (${reason.slice(0, 200)}); its answer to this request was lost.`;
          void http?.send({ jsonrpc: '2.0', id, error: { code: -32603, message } }).catch(() => {});
        }
        waiting.clear();
      };
      stdio.onclose = () => void http?.close().catch(() => {});
      http.onmessage = (message) => {
        const id = idOf(message);
        if (id !== undefined && 'method' in message) waiting.add(id);
        void stdio.send(message).catch(() => {});
      };
      // The host watches onclose too (it forgets the session): chain, do not replace.
      const hostOnClose = http.onclose;
      http.onclose = () => {
        hostOnClose?.();
        void stdio.close().catch(() => {});
      };
      await stdio.start();
      onStart();
      await http.start();
    },
    async close() {
      await Promise.all([child?.close().catch(() => {}), http?.close().catch(() => {})]);
    },
  };
}

/** Starts the gateway for `spec` on loopback. */
export async function startStdioGateway(spec: StdioCommand): Promise<StdioGateway> {
  let started = 0;
  const host = await startMcpHttpHost({ createServer: () => bridge(spec, () => started++) });
  return { url: host.url, host, started: () => started, close: () => host.close() };
}
