/**
 * Grep's regex runs here, off the page's thread: a pattern that backtracks for minutes (`(a+)+$`) keeps
 * only this worker busy, and the page ends it (Esc, or the per-file time budget) by terminating it.
 * Protocol: the page posts a MatchRequest per file; the worker answers a MatchReply with the same id.
 */

import { messageOf } from '../../core/errors.ts';
import type { MatchReply, MatchRequest } from './line-matcher.ts';
import { matchingLines, splitLines } from './search.ts';

let compiled: { key: string; regex: RegExp } | undefined;

self.onmessage = (e: MessageEvent<MatchRequest>) => {
  const { id, source, flags, multiline, text } = e.data;
  let reply: MatchReply;
  try {
    const key = `${flags}/${source}`;
    if (compiled?.key !== key) compiled = { key, regex: new RegExp(source, flags) };
    reply = { id, matched: matchingLines(text, splitLines(text), compiled.regex, multiline) };
  } catch (err) {
    reply = { id, error: messageOf(err) };
  }
  (self as unknown as Worker).postMessage(reply);
};

// Loaded: the page starts a file's time budget from here, so a slow start never counts against a file.
(self as unknown as Worker).postMessage({ ready: true });
