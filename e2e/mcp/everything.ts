/**
 * Starts `@modelcontextprotocol/server-everything` (the MCP reference test server, a devDependency) in
 * Streamable HTTP mode as a child process: `node <pkg>/dist/index.js streamableHttp` with PORT set to
 * a free loopback port. Its endpoint is http://127.0.0.1:PORT/mcp; it sends permissive CORS headers
 * (any origin, mcp-session-id exposed), which is all a cross-origin isolated page needs for fetch().
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface EverythingServer {
  url: string;
  port: number;
  /** Everything it printed (stdout + stderr), for diagnostics. */
  output(): string;
  close(): Promise<void>;
}

/** A port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Path of the server-everything entry point in node_modules. */
export function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return join(dirname(pkg), 'dist', 'index.js');
}

/**
 * Spawns server-everything and resolves once it listens (rejects after `timeoutMs`). `port`: a given
 * one (to restart it where it was), else a free one.
 */
export async function startEverythingServer(timeoutMs = 20_000, port?: number): Promise<EverythingServer> {
  port ??= await freePort();
  const child: ChildProcess = spawn(process.execPath, [everythingEntry(), 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave the server behind when the test process ends early.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let output = '';
  const onData = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server-everything did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = () => {
      if (/listening on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with code ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    output: () => output,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
