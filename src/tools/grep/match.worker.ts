/**
 * Grep's regex runs here, off the page's thread: a pattern that backtracks for minutes (`(a+)+$`) keeps
 * only this worker busy, and the page ends it (Esc, or the per-file time budget) by terminating it.
 * Protocol (../../core/worker-tasks.ts): one MatchJob per file, answered with its matching lines.
 */
import { serveWorkerTasks } from '../../core/worker-tasks.ts';
import type { MatchJob, MatchReply, MatchRequest } from './line-matcher.ts';
import { matchingLines, splitLines } from './search.ts';

let compiled: { key: string; regex: RegExp } | undefined;

serveWorkerTasks(
  self as unknown as {
    postMessage(message: MatchReply): void;
    addEventListener(type: 'message', listener: (event: { data: MatchRequest }) => void): void;
  },
  ({ source, flags, multiline, text }: MatchJob) => {
    const key = `${flags}/${source}`;
    if (compiled?.key !== key) compiled = { key, regex: new RegExp(source, flags) };
    return matchingLines(text, splitLines(text), compiled.regex, multiline);
  },
);
