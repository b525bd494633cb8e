/**
 * The semantic stage's worker: loads the word-vector table from our own origin (the asset beside this
 * module, never a model hub), prepares catalogue vocabularies and answers expansion requests
 * (./semantic-stage.ts has the protocol).
 */
import { createVectorsCore, type WorkerReply, type WorkerRequest } from './semantic-stage.ts';
import tableUrl from './vectors/word-vectors.bin?url';

const scope = self as unknown as {
  postMessage(m: WorkerReply): void;
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
};

const core = createVectorsCore(async () => {
  const res = await fetch(tableUrl);
  if (!res.ok) throw new Error(`HTTP ${res.status} for ${tableUrl}`);
  return new Uint8Array(await res.arrayBuffer());
});
core.hub.subscribe((status) => scope.postMessage({ type: 'status', status }));

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'warm') {
    void core.start();
    return;
  }
  if (m.type === 'expand') {
    core
      .expand(m.key, m.vocabulary, m.words)
      .then((expansions) =>
        scope.postMessage({
          type: 'expanded',
          id: m.id,
          expansions: expansions ? [...expansions] : undefined,
        }),
      )
      .catch(() => scope.postMessage({ type: 'expanded', id: m.id }));
  }
};
