/**
 * Checks of scripted content a host hands in: a replay file (recorded or hand-written), the older
 * scripted `demo`, and lessons. A replay is all or nothing: one bad part and the whole replay is refused
 * (half a recording tells a different story), with the first problem's path. A demo or lesson keeps its
 * good turns and steps. Never throws.
 */

import { messageOf } from '../core/errors.ts';
import {
  type EmbedDemo,
  type EmbedDemoText,
  type EmbedDemoToolUse,
  type EmbedDemoTurn,
  type EmbedLessonStep,
  type EmbedLessons,
  type EmbedReplay,
  type EmbedReplayEvent,
  type EmbedReplayResponse,
  type EmbedReplayResult,
  type EmbedReplayTurn,
  REPLAY_FORMAT,
  REPLAY_VERSION,
} from './config.ts';
import { checkFiles, checkPrompt, isObject, type Json, kindOf, type Warn } from './validate-shared.ts';

/** Most streamed events in one replay (a long recorded session has a few thousand). */
export const MAX_REPLAY_EVENTS = 200_000;
/** Longest wait a replay may ask for between two events or before a prompt (ms). */
export const MAX_REPLAY_GAP_MS = 10 * 60_000;
/** Most lesson steps. */
export const MAX_LESSON_STEPS = 100;

const SSE_EVENTS = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);

/** The blocks of one scripted answer; undefined (with a warning) when any block is bad. */
export function checkBlocks(value: unknown, field: string, warn: Warn): EmbedDemoTurn['content'] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    warn(field, 'An answer needs at least one block; it is left out.');
    return undefined;
  }
  const content: EmbedDemoTurn['content'] = [];
  for (const [j, b] of value.entries()) {
    const bf = `${field}[${j}]`;
    if (isObject(b) && b.type === 'text' && typeof b.text === 'string') {
      content.push({ type: 'text', text: b.text } satisfies EmbedDemoText);
    } else if (isObject(b) && b.type === 'tool_use' && typeof b.name === 'string' && isObject(b.input)) {
      if (b.id !== undefined && (typeof b.id !== 'string' || !/^[a-zA-Z0-9_-]+$/.test(b.id))) {
        warn(`${bf}.id`, 'A tool_use id must be letters, digits, _ or -; the answer is left out.');
        return undefined;
      }
      content.push({
        type: 'tool_use',
        ...(b.id ? { id: b.id as string } : {}),
        name: b.name,
        input: b.input,
      } satisfies EmbedDemoToolUse);
    } else {
      warn(
        bf,
        'A block must be { type: "text", text } or { type: "tool_use", name, input }; the answer is left out.',
      );
      return undefined;
    }
  }
  return content;
}

export function checkDemo(value: unknown, warn: Warn): EmbedDemo | undefined {
  if (!isObject(value) || !Array.isArray(value.turns)) {
    warn('demo', 'demo must be { turns: [...] }.');
    return undefined;
  }
  const demo: EmbedDemo = { turns: [] };
  for (const [i, turn] of value.turns.entries()) {
    const field = `demo.turns[${i}]`;
    if (!isObject(turn) || !Array.isArray(turn.content) || turn.content.length === 0) {
      warn(field, 'A turn must be { content: [blocks] } with at least one block; the turn is left out.');
      continue;
    }
    // A turn with any bad block is left out whole (half a turn would tell a different story).
    const content = checkBlocks(turn.content, `${field}.content`, warn);
    if (content) demo.turns.push({ content });
  }
  if (value.chunkDelayMs !== undefined) {
    const d = value.chunkDelayMs;
    if (typeof d === 'number' && d >= 0 && d <= 5000) demo.chunkDelayMs = d;
    else warn('demo.chunkDelayMs', 'chunkDelayMs must be a number of ms from 0 to 5000.');
  }
  if (value.endText !== undefined) {
    if (typeof value.endText === 'string') demo.endText = value.endText;
    else warn('demo.endText', 'endText must be a string.');
  }
  return demo;
}

/** Thrown inside checkReplay to stop at the first problem (caught there). */
class ReplayProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function fail(field: string, message: string): never {
  throw new ReplayProblem(field, message);
}

const gap = (v: unknown, field: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_REPLAY_GAP_MS)
    fail(field, `must be a number of milliseconds from 0 to ${MAX_REPLAY_GAP_MS} (got ${String(v)}).`);
  return v as number;
};

/**
 * A whole replay file (parsed JSON, or its text). Returns it cleaned, or undefined with one warning
 * naming the first problem. `field` is the config path it came from (`replay`, `lessons.steps[1].replay`).
 */
export function checkReplay(value: unknown, field: string, warn: Warn): EmbedReplay | undefined {
  let raw = value;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch (err) {
      warn(field, `The replay is not JSON (${messageOf(err)}); it is not played.`);
      return undefined;
    }
  }
  try {
    return replayOf(raw, field);
  } catch (err) {
    if (!(err instanceof ReplayProblem)) throw err;
    const at = err.field === field ? '' : ` at ${err.field.slice(field.length).replace(/^\./, '')}`;
    warn(field, `The replay is refused${at}: ${err.message} Nothing of it is played.`);
    return undefined;
  }
}

function replayOf(raw: unknown, field: string): EmbedReplay {
  if (!isObject(raw)) fail(field, `a replay is an object (got ${kindOf(raw)}).`);
  const r = raw as Json;
  if (r.format !== REPLAY_FORMAT)
    fail(`${field}.format`, `this is not a tabcode replay (format must be "${REPLAY_FORMAT}").`);
  if (r.version !== REPLAY_VERSION)
    fail(
      `${field}.version`,
      `it is version ${JSON.stringify(r.version)}; this tabcode plays version ${REPLAY_VERSION} replays. Record it again with this version, or use the tabcode version that wrote it.`,
    );
  if (!Array.isArray(r.turns) || r.turns.length === 0)
    fail(`${field}.turns`, 'a replay needs at least one turn.');
  const replay: EmbedReplay = { format: REPLAY_FORMAT, version: REPLAY_VERSION, turns: [] };
  for (const key of ['title', 'recordedAt', 'model', 'endText'] as const) {
    if (r[key] === undefined) continue;
    if (typeof r[key] !== 'string') fail(`${field}.${key}`, `${key} must be text.`);
    replay[key] = r[key] as string;
  }
  if (r.files !== undefined) {
    const problems: string[] = [];
    const files = checkFiles(r.files, `${field}.files`, (f) => problems.push(f));
    if (problems.length)
      fail(problems[0], 'a file of the replay is refused (see the config checks for files).');
    replay.files = files;
  }
  let events = 0;
  (r.turns as unknown[]).forEach((t, i) => {
    const tf = `${field}.turns[${i}]`;
    if (!isObject(t) || !Array.isArray(t.responses) || t.responses.length === 0)
      fail(tf, 'a turn is { prompt?, responses: [at least one answer] }.');
    const turn = t as Json;
    const out: EmbedReplayTurn = { responses: [] };
    if (turn.prompt !== undefined) {
      const problems: string[] = [];
      const prompt = checkPrompt(turn.prompt, `${tf}.prompt`, (_f, m) => problems.push(m));
      if (prompt === undefined) fail(`${tf}.prompt`, problems[0]);
      out.prompt = prompt;
    }
    if (turn.pauseMs !== undefined) out.pauseMs = gap(turn.pauseMs, `${tf}.pauseMs`);
    (turn.responses as unknown[]).forEach((resp, j) => {
      const response = responseOf(resp, `${tf}.responses[${j}]`);
      events += response.events?.length ?? 0;
      if (events > MAX_REPLAY_EVENTS) fail(tf, `more than ${MAX_REPLAY_EVENTS} streamed events in all.`);
      out.responses.push(response);
    });
    replay.turns.push(out);
  });
  return replay;
}

function responseOf(raw: unknown, field: string): EmbedReplayResponse {
  if (!isObject(raw)) fail(field, `an answer is an object (got ${kindOf(raw)}).`);
  const r = raw as Json;
  if ((r.events === undefined) === (r.content === undefined))
    fail(field, 'an answer has either recorded `events` or hand-written `content` (one of the two).');
  const out: EmbedReplayResponse = {};
  if (r.content !== undefined) {
    const problems: [string, string][] = [];
    const content = checkBlocks(r.content, `${field}.content`, (f, m) => problems.push([f, m]));
    if (!content) fail(problems[0][0], problems[0][1].replace(/; the answer is left out\.$/, '.'));
    out.content = content;
    if (r.chunkDelayMs !== undefined) out.chunkDelayMs = gap(r.chunkDelayMs, `${field}.chunkDelayMs`);
  } else out.events = eventsOf(r.events, `${field}.events`);
  if (r.results !== undefined) out.results = resultsOf(r.results, `${field}.results`);
  return out;
}

function eventsOf(raw: unknown, field: string): EmbedReplayEvent[] {
  if (!Array.isArray(raw) || raw.length < 2)
    fail(field, 'recorded events are a list from message_start to message_stop.');
  const events: EmbedReplayEvent[] = [];
  let last = 0;
  const open = new Set<number>();
  (raw as unknown[]).forEach((e, k) => {
    const ef = `${field}[${k}]`;
    if (!isObject(e)) fail(ef, `an event is { at, event, data } (got ${kindOf(e)}).`);
    const ev = e as Json;
    const at = gap(ev.at, `${ef}.at`);
    if (at < last) fail(`${ef}.at`, `events must be in time order (${at} ms comes after ${last} ms).`);
    last = at;
    if (typeof ev.event !== 'string' || !SSE_EVENTS.has(ev.event))
      fail(`${ef}.event`, `${JSON.stringify(ev.event)} is not a Messages API stream event.`);
    if (!isObject(ev.data) || ev.data.type !== ev.event)
      fail(`${ef}.data`, "an event's data must be an object whose type is the event name.");
    const data = ev.data as Json;
    if (k === 0 && ev.event !== 'message_start') fail(ef, 'the first event must be message_start.');
    if (ev.event.startsWith('content_block')) {
      const index = data.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
        fail(`${ef}.data.index`, 'a content block event needs its block index.');
      if (ev.event === 'content_block_start') {
        if (!isObject(data.content_block))
          fail(`${ef}.data.content_block`, 'content_block_start needs the block.');
        open.add(index as number);
      } else if (!open.has(index as number)) fail(ef, `block ${String(index)} was not started.`);
      if (ev.event === 'content_block_stop') open.delete(index as number);
    }
    events.push({ at, event: ev.event as string, data });
  });
  const end = events[events.length - 1].event;
  if (end !== 'message_stop' && end !== 'error')
    fail(field, 'the last event must be message_stop (or error).');
  if (open.size > 0 && end === 'message_stop') fail(field, `block ${[...open][0]} was never stopped.`);
  return events;
}

function resultsOf(raw: unknown, field: string): EmbedReplayResult[] {
  if (!Array.isArray(raw)) fail(field, 'results are a list of { toolUseId, isError, content }.');
  return (raw as unknown[]).map((x, k) => {
    const f = `${field}[${k}]`;
    if (
      !isObject(x) ||
      typeof x.toolUseId !== 'string' ||
      typeof x.content !== 'string' ||
      typeof x.isError !== 'boolean'
    )
      fail(f, 'a result is { toolUseId, isError, content } (content as text).');
    const v = x as Json;
    return {
      toolUseId: v.toolUseId as string,
      ...(typeof v.name === 'string' ? { name: v.name } : {}),
      isError: v.isError as boolean,
      content: v.content as string,
    };
  });
}

export function checkLessons(value: unknown, warn: Warn): EmbedLessons | undefined {
  if (!isObject(value) || !Array.isArray(value.steps) || value.steps.length === 0) {
    warn('lessons', 'lessons must be { steps: [at least one step] }.');
    return undefined;
  }
  const steps: EmbedLessonStep[] = [];
  for (const [i, raw] of value.steps.slice(0, MAX_LESSON_STEPS).entries()) {
    const field = `lessons.steps[${i}]`;
    if (!isObject(raw) || typeof raw.title !== 'string' || !raw.title.trim()) {
      warn(field, 'A step needs a title; the step is left out.');
      continue;
    }
    const step: EmbedLessonStep = { title: raw.title.trim() };
    for (const key of Object.keys(raw)) {
      if (!['title', 'body', 'files', 'prompt', 'solution', 'replay'].includes(key))
        warn(`${field}.${key}`, `Unknown step field "${key}", ignored.`);
    }
    if (raw.body !== undefined) {
      if (typeof raw.body === 'string') step.body = raw.body;
      else warn(`${field}.body`, 'body must be text.');
    }
    if (raw.files !== undefined) step.files = checkFiles(raw.files, `${field}.files`, warn);
    if (raw.solution !== undefined) step.solution = checkFiles(raw.solution, `${field}.solution`, warn);
    if (raw.prompt !== undefined) step.prompt = checkPrompt(raw.prompt, `${field}.prompt`, warn);
    if (raw.replay !== undefined) step.replay = checkReplay(raw.replay, `${field}.replay`, warn);
    steps.push(step);
  }
  if (value.steps.length > MAX_LESSON_STEPS)
    warn('lessons.steps', `A lesson has at most ${MAX_LESSON_STEPS} steps; the rest are left out.`);
  if (steps.length === 0) return undefined;
  const lessons: EmbedLessons = { steps };
  if (value.start !== undefined) {
    const s = value.start;
    if (typeof s === 'number' && Number.isInteger(s) && s >= 0 && s < steps.length) lessons.start = s;
    else warn('lessons.start', `start must be a step number from 0 to ${steps.length - 1}.`);
  }
  return lessons;
}
