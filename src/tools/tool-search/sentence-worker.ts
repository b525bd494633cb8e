/**
 * The sentence-encoder stage's worker (./sentence-stage.ts has the protocol): loads the encoder from our
 * own origin on the first request (./encoder-browser.ts), embeds each catalogue's tools once (vectors kept
 * in IndexedDB) and answers queries with their cosines.
 */
import { loadBrowserEncoder } from './encoder-browser.ts';
import {
  createSentenceCore,
  idbVectorCache,
  type SentenceRequest,
  type SentenceWorkerReply,
} from './sentence-stage.ts';

const scope = self as unknown as {
  postMessage(m: SentenceWorkerReply, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<SentenceRequest>) => void) | null;
};

let core: ReturnType<typeof createSentenceCore> | undefined;
const coreFor = (cacheDb?: string) => {
  if (!core) {
    let cache: ReturnType<typeof idbVectorCache> | undefined;
    try {
      cache = cacheDb && typeof indexedDB !== 'undefined' ? idbVectorCache(cacheDb) : undefined;
    } catch {
      cache = undefined;
    }
    core = createSentenceCore(loadBrowserEncoder, cache);
    core.hub.subscribe((status) => scope.postMessage({ type: 'status', status }));
  }
  return core;
};

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'start') {
    void coreFor(m.cacheDb).start();
  } else if (m.type === 'prepare') {
    coreFor().prepare(m.key, m.tools);
  } else if (m.type === 'query') {
    coreFor()
      .answer(m.key, m.query, m.tools)
      .then((reply) =>
        scope.postMessage(
          { type: 'answer', id: m.id, reply },
          'cosines' in reply ? [reply.cosines.buffer] : [],
        ),
      )
      .catch((err) => scope.postMessage({ type: 'answer', id: m.id, reply: { failed: String(err) } }));
  }
};
