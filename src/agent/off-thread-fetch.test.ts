/**
 * Model requests through the request worker's protocol: the page's side (createOffThreadFetch) and the
 * worker's (serveFetches) joined by a real MessageChannel, the worker's fetch being Node's. A real agent
 * session (real SDK, real just-bash sandbox) runs against the mock Messages API through it: streamed
 * turns with tools, a retried 529, a cut stream, an interrupt mid-stream; and a loopback server checks
 * the request as sent, a stream cancelled by its reader, a network failure and a worker that cannot load.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import {
  createOffThreadFetch,
  type FetchReply,
  type FetchRequest,
  type FetchScope,
  type FetchWorkerLike,
  serveFetches,
} from './off-thread-fetch.ts';
import { createAgentSession } from './session.ts';
import type { SessionEvent } from './types.ts';

/** A "worker": serveFetches on one port of a MessageChannel, the page's side on the other. */
function channelWorker(spawned: { count: number; terminated: number }): FetchWorkerLike {
  spawned.count++;
  const { port1, port2 } = new MessageChannel();
  serveFetches(
    {
      postMessage: (m: FetchReply, transfer?: Transferable[]) =>
        port2.postMessage(m, transfer as unknown as readonly ArrayBuffer[]),
      addEventListener: (_type, listener) => port2.on('message', (data: FetchRequest) => listener({ data })),
    } satisfies FetchScope,
    (input, init) => fetch(input, init),
  );
  const side: FetchWorkerLike = {
    postMessage: (m) => port1.postMessage(m),
    onmessage: null,
    terminate() {
      spawned.terminated++;
      port1.close();
      port2.close();
    },
  };
  port1.on('message', (data: FetchReply) => side.onmessage?.({ data }));
  port1.unref();
  port2.unref();
  return side;
}

const direct: { calls: number; urls: string[]; fetch: typeof fetch } = {
  calls: 0,
  urls: [],
  fetch: (input, init) => {
    direct.calls++;
    direct.urls.push(String(input));
    return fetch(input, init);
  },
};

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  direct.calls = 0;
  direct.urls = [];
});

describe('a session whose requests go through the request worker', () => {
  const sessionWith = async (spawned: { count: number; terminated: number }) => {
    const session = await createAgentSession({
      settings: {
        apiKey: 'test',
        baseURL: api.url,
        model: 'claude-test',
        permissionMode: 'bypassPermissions',
      },
      sandbox: await createJustBashSandbox({ files: { '/home/user/project/a.txt': 'alpha\n' } }),
      mcp: null,
      fetch: createOffThreadFetch(() => channelWorker(spawned), direct.fetch),
    });
    const events: SessionEvent[] = [];
    session.subscribe((e) => events.push(e));
    return { session, events };
  };

  it('streams turns with tools, rides out a 529 and a cut stream, all through one worker', async () => {
    const spawned = { count: 0, terminated: 0 };
    const { session, events } = await sessionWith(spawned);
    api.script([
      { fault: { kind: 'overloaded', retryAfterMs: 5 } },
      {
        chunkDelayMs: 2,
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '/home/user/project/a.txt' } },
        ],
      },
      { fault: { kind: 'cut_stream' } },
      { content: [{ type: 'text', text: `Done: ${'é'.repeat(3000)} ✓` }] },
    ]);
    await session.send('read a.txt');
    expect(api.requests.map((r) => r.status)).toEqual([529, 200, 200, 200]);
    expect(events.some((e) => e.type === 'error')).toBe(false);
    // The tool ran and its result went back in the next request, byte for byte as JSON.
    const result = api.requests[3].body.messages.at(-1);
    expect(JSON.stringify(result)).toContain('alpha');
    expect(JSON.stringify(session.transcript().at(-1))).toContain(`Done: ${'é'.repeat(3000)} ✓`);
    // Every Messages request went through the worker (a bodiless GET, like the model lookup, may not).
    expect(direct.urls.filter((u) => u.includes('/v1/messages'))).toEqual([]);
    expect(spawned.count).toBe(1);
    await session.dispose();
  });

  it('an interrupt mid-stream closes the request in the worker; the next prompt goes out', async () => {
    const spawned = { count: 0, terminated: 0 };
    const { session } = await sessionWith(spawned);
    api.script([
      { chunkDelayMs: 40, content: [{ type: 'text', text: 'word '.repeat(200) }] },
      { content: [{ type: 'text', text: 'after' }] },
    ]);
    const run = session.send('talk');
    await expect.poll(() => api.requests.length).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    session.interrupt();
    await run;
    await expect.poll(() => api.requests[0].aborted).toBe(true);
    await session.send('again');
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1].status).toBe(200);
    await session.dispose();
  });
});

describe('the request worker on its own', () => {
  let server: Server;
  let base: string;
  let seen: { method?: string; headers?: Record<string, unknown>; body?: string; closed?: boolean };
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen = { method: req.method, headers: req.headers };
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        seen.body = body;
        if (req.url === '/empty') {
          res.writeHead(204, { 'x-kind': 'empty' });
          res.end();
          return;
        }
        res.writeHead(201, 'Made', { 'content-type': 'text/plain', 'x-kind': 'slow' });
        let n = 0;
        const tick = setInterval(
          () => {
            if (n === 20) {
              clearInterval(tick);
              res.end();
              return;
            }
            res.write(`chunk ${n++};`);
          },
          req.url === '/slow' ? 30 : 1,
        );
        res.on('close', () => {
          clearInterval(tick);
          seen.closed = !res.writableFinished;
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('sends method, headers and a large body as given, and gives back status, headers and the stream', async () => {
    const spawned = { count: 0, terminated: 0 };
    const offThread = createOffThreadFetch(() => channelWorker(spawned), direct.fetch);
    const body = JSON.stringify({ messages: [{ content: `${'x'.repeat(3_000_000)}\u{1F600}é` }] });
    const res = await offThread(new URL(`${base}/fast`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k-123' },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('x-kind')).toBe('slow');
    expect(await res.text()).toBe(Array.from({ length: 20 }, (_, i) => `chunk ${i};`).join(''));
    expect(seen.method).toBe('POST');
    expect(seen.headers?.['x-api-key']).toBe('k-123');
    expect(seen.body).toBe(body);

    const empty = await offThread(`${base}/empty`, { method: 'POST', body: '' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect(empty.headers.get('x-kind')).toBe('empty');
    // Not a string body: the given fetch.
    const viaDirect = await offThread(`${base}/fast`);
    expect(await viaDirect.text()).toContain('chunk 19;');
    expect(direct.calls).toBe(1);
    expect(spawned.count).toBe(1);
  });

  it('a reader that cancels, and an abort before the answer, end the request in the worker', async () => {
    const spawned = { count: 0, terminated: 0 };
    const offThread = createOffThreadFetch(() => channelWorker(spawned), direct.fetch);
    const res = await offThread(`${base}/slow`, { method: 'POST', body: 'x' });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('chunk 0;');
    await reader.cancel();
    await expect.poll(() => seen.closed).toBe(true);

    const controller = new AbortController();
    const pending = offThread(`${base}/slow`, { method: 'POST', body: 'y', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const reasoned = new AbortController();
    reasoned.abort(new Error('stopped by the user'));
    await expect(
      offThread(`${base}/slow`, { method: 'POST', body: 'z', signal: reasoned.signal }),
    ).rejects.toThrow('stopped by the user');

    // An abort mid-stream errors the stream with the reason.
    const mid = new AbortController();
    const streaming = await offThread(`${base}/slow`, { method: 'POST', body: 'w', signal: mid.signal });
    const r2 = (streaming.body as ReadableStream<Uint8Array>).getReader();
    await r2.read();
    mid.abort();
    await expect(r2.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a network failure is a TypeError, as from fetch', async () => {
    const spawned = { count: 0, terminated: 0 };
    const offThread = createOffThreadFetch(() => channelWorker(spawned), direct.fetch);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(
      offThread(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x' }),
    ).rejects.toBeInstanceOf(TypeError);
  });

  it('a worker that cannot be made, or dies before answering, leaves requests to the given fetch', async () => {
    const throwing = createOffThreadFetch(() => {
      throw new Error('worker-src refused');
    }, direct.fetch);
    expect((await throwing(`${base}/fast`, { method: 'POST', body: 'a' })).status).toBe(201);
    expect(direct.calls).toBe(1);

    let made = 0;
    const dying = createOffThreadFetch(() => {
      made++;
      const side: FetchWorkerLike = {
        postMessage: () => queueMicrotask(() => side.onerror?.({ message: '404' })),
        onmessage: null,
      };
      return side;
    }, direct.fetch);
    // The request the worker held is sent with the given fetch; no new worker is tried after.
    expect((await dying(`${base}/fast`, { method: 'POST', body: 'b' })).status).toBe(201);
    expect((await dying(`${base}/fast`, { method: 'POST', body: 'c' })).status).toBe(201);
    expect(made).toBe(1);
    expect(direct.calls).toBe(3);
  });

  it('a worker that dies after it answered fails what it held as a network error; the next request gets a new one', async () => {
    const spawned = { count: 0, terminated: 0 };
    let current: FetchWorkerLike | undefined;
    const offThread = createOffThreadFetch(() => {
      current = channelWorker(spawned);
      return current;
    }, direct.fetch);
    expect((await offThread(`${base}/fast`, { method: 'POST', body: 'a' })).status).toBe(201);
    const held = offThread(`${base}/slow`, { method: 'POST', body: 'b' });
    await new Promise((r) => setTimeout(r, 5));
    current?.onerror?.({ message: 'out of memory' });
    await expect(held).rejects.toThrow('The request worker stopped: out of memory');
    expect(spawned.terminated).toBe(1);
    expect((await offThread(`${base}/fast`, { method: 'POST', body: 'c' })).status).toBe(201);
    expect(spawned.count).toBe(2);
    expect(direct.calls).toBe(0);
  });
});
