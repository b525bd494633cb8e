/** The highlight worker's code in a Node worker thread (tests): see ../highlight-host.ts. */
import { parentPort } from 'node:worker_threads';
import { type HighlightReply, type HighlightRequest, serveHighlight } from '../highlight-host.ts';

const port = parentPort;
if (port) {
  serveHighlight(
    (reply: HighlightReply) => port.postMessage(reply),
    (listener: (request: HighlightRequest) => void) => port.on('message', listener),
  );
}
