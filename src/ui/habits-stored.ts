/**
 * How the habit items (habits-state.ts) are checked when a saved or imported view is read back: the
 * same strictness as the other stored items (an imported file is untrusted).
 */
import { z } from 'zod';

const str = z.string();
const tone = z.enum(['info', 'warn', 'error']);

export const HABIT_ITEM_SCHEMAS = [
  z.object({
    kind: z.literal('thinking'),
    id: str,
    text: str,
    redacted: z.boolean().optional(),
    streaming: z.boolean().optional(),
    discarded: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('compaction'),
    id: str,
    trigger: z.enum(['manual', 'auto', 'overflow']),
    status: z.enum(['running', 'done', 'failed', 'cleared']),
    tokensBefore: z.number(),
    tokensAfter: z.number().optional(),
    summarized: z.number().optional(),
    cleared: z.number().optional(),
    summary: str.optional(),
    error: str.optional(),
  }),
  z.object({
    kind: z.literal('shell'),
    id: str,
    command: str,
    status: z.enum(['running', 'done']),
    stdout: str.optional(),
    stderr: str.optional(),
    exitCode: z.number().optional(),
    timedOut: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('command'), id: str, input: str, output: str, tone: z.enum(['info', 'error']) }),
  z.object({
    kind: z.literal('note'),
    id: str,
    topic: z.enum(['memory', 'hook', 'mentions', 'loop-guard', 'refused']),
    tone,
    text: str,
    detail: str.optional(),
  }),
] as const;
