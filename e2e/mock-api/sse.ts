/**
 * Server-sent events of a streamed message: the encoder lives in src/embed/sse.ts (the in-page demo
 * transport uses it too), so the mock API and the page stream byte-for-byte the same shapes.
 */
export {
  chunkJson,
  chunkText,
  errorEvent,
  formatEvent,
  messageEvents,
  type SseEvent,
} from '../../src/embed/sse.ts';
