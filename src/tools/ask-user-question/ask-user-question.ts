/**
 * AskUserQuestion: 1-4 multiple-choice questions (2-4 options each, optional multi-select, an "Other"
 * free answer added by the page). The questions are the call's permission prompt: the page renders
 * them as a card, and the user's choices come back as the approved input's `answers` (as Claude Code's
 * permission component does), which the call returns to the model. It asks in every mode but dontAsk.
 */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';

export const MAX_QUESTIONS = 4;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
/** Longest header chip (characters). */
export const MAX_HEADER_CHARS = 12;

const PROMPT = promptText
  .replaceAll('{{MAX_QUESTIONS}}', String(MAX_QUESTIONS))
  .replaceAll('{{MIN_OPTIONS}}', String(MIN_OPTIONS))
  .replaceAll('{{MAX_OPTIONS}}', String(MAX_OPTIONS))
  .replaceAll('{{MAX_HEADER}}', String(MAX_HEADER_CHARS))
  .trim();

const optionSchema = z.strictObject({
  label: z.string().min(1).describe('The choice as the user sees it: concise, 1-5 words'),
  description: z.string().describe('What this choice means or what follows from it'),
});

const questionSchema = z.strictObject({
  question: z
    .string()
    .min(1)
    .describe('The complete question, clear and specific, ending with a question mark'),
  header: z
    .string()
    .min(1)
    .max(MAX_HEADER_CHARS, `A header is a short chip: at most ${MAX_HEADER_CHARS} characters.`)
    .describe(`A very short label shown as a chip (at most ${MAX_HEADER_CHARS} characters), e.g. "Library"`),
  options: z
    .array(optionSchema)
    .min(
      MIN_OPTIONS,
      `A question needs ${MIN_OPTIONS} to ${MAX_OPTIONS} options (the page adds "Other" by itself).`,
    )
    .max(MAX_OPTIONS, `A question takes at most ${MAX_OPTIONS} options: merge some, or ask two questions.`)
    .describe(
      `${MIN_OPTIONS}-${MAX_OPTIONS} distinct choices; no "Other" option (it is added automatically)`,
    ),
  multiSelect: z.boolean().describe('True when the user may pick several options'),
});

const inputSchema = z.strictObject({
  questions: z
    .array(questionSchema)
    .min(1, 'Give at least one question.')
    .max(MAX_QUESTIONS, `Ask at most ${MAX_QUESTIONS} questions at a time.`)
    .describe(`The questions to ask (1-${MAX_QUESTIONS})`),
  answers: z
    .record(z.string(), z.string())
    .optional()
    .describe("Filled in by the page with the user's answers (question text → answer); leave it out"),
});

export type AskUserQuestionInput = z.infer<typeof inputSchema>;
export type Question = AskUserQuestionInput['questions'][number];

export interface AskUserQuestionOutput {
  questions: Question[];
  answers: Record<string, string>;
}

/** Why the questions cannot be asked, or null. */
function problem(input: AskUserQuestionInput): string | null {
  const texts = input.questions.map((q) => q.question.trim());
  if (new Set(texts).size !== texts.length) return 'Two questions have the same text: each must differ.';
  for (const q of input.questions) {
    const labels = q.options.map((o) => o.label.trim().toLowerCase());
    if (new Set(labels).size !== labels.length) return `The options of "${q.question}" repeat a label.`;
    if (labels.includes('other')) {
      return `Leave "Other" out of "${q.question}": the page adds a free answer to every question.`;
    }
  }
  return null;
}

/** The answers as the model reads them. */
export function formatAnswers(output: AskUserQuestionOutput): string {
  const lines = output.questions.map((q) => {
    const a = output.answers[q.question];
    return `- ${q.question}\n  Answer: ${a === undefined || a.trim() === '' ? '(no answer)' : a}`;
  });
  return `The user answered your questions:\n${lines.join('\n')}\n\nCarry on with these answers in mind.`;
}

export const AskUserQuestionTool = buildTool({
  name: 'AskUserQuestion',
  searchHint: 'ask user question choice clarify options preference decide',
  inputSchema,
  description: () => 'Ask the user multiple-choice questions and wait for the answers',
  prompt: () => PROMPT,

  // The prompt is the questions: it asks every time (a rule cannot answer for the user).
  checkPermissions: async () => ({ behavior: 'ask', message: 'The agent has a question for you.' }),
  isReadOnly: () => true,
  validateInput: (input) => problem(input),

  async call(input) {
    const error = problem(input);
    if (error) throw new ToolInputError(error);
    const answers = input.answers ?? {};
    if (!input.questions.some((q) => (answers[q.question] ?? '').trim() !== '')) {
      throw new ToolInputError(
        'The user closed the questions without answering. Ask in your reply instead, or go on with your best judgement and say which choice you made.',
      );
    }
    return { data: { questions: input.questions, answers } };
  },

  mapToolResultToToolResultBlockParam: (output: AskUserQuestionOutput, toolUseId) =>
    textResult(toolUseId, formatAnswers(output)),
  renderToolUseMessage: (input) => {
    const qs = Array.isArray(input.questions) ? input.questions : [];
    return {
      title: qs.length > 1 ? 'Questions' : 'Question',
      subtitle: qs[0]?.question,
      body: { kind: 'none' },
    };
  },
  renderToolResultMessage: (output) => ({
    kind: 'text',
    text: output.questions
      .map((q) => `${q.header}: ${output.answers[q.question] ?? '(no answer)'}`)
      .join('\n'),
  }),
  toAutoClassifierInput: (input) => input.questions.map((q) => q.question).join(' | '),
});
