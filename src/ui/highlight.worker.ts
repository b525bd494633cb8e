/** Syntax highlighting off the page's thread (see ./highlight-host.ts): answers each request in chunks. */
import { type HighlightReply, type HighlightRequest, serveHighlight } from './highlight-host.ts';

const scope = self as unknown as {
  postMessage(message: HighlightReply): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HighlightRequest>) => void): void;
};

serveHighlight(
  (reply) => scope.postMessage(reply),
  (listener) => scope.addEventListener('message', (event) => listener(event.data)),
);
