/**
 * ExitPlanMode: shows the plan (markdown) to the user for approval. The approval is its permission
 * prompt (the page renders the plan with the choices): approve and switch to `default` or
 * `acceptEdits` (the answer's mode, applied through the app state), or deny with feedback to keep
 * planning. It asks at every call, in every mode but dontAsk.
 */
import { z } from 'zod';
import type { PermissionMode } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';

/** Longest plan accepted (characters): a plan is read by a person. */
export const PLAN_MAX_CHARS = 40_000;

const inputSchema = z.strictObject({
  plan: z
    .string()
    .describe('The plan to run past the user, in markdown: the steps, the files to change, how to check it.'),
});

export type ExitPlanModeInput = z.infer<typeof inputSchema>;

export interface ExitPlanModeOutput {
  plan: string;
  /** The mode the session is in now. */
  mode: PermissionMode;
}

function problem(input: ExitPlanModeInput, mode: PermissionMode | undefined): string | null {
  if (mode !== 'plan') {
    return 'The session is not in plan mode, so there is no plan to approve: go ahead with the task (or enter plan mode with EnterPlanMode first).';
  }
  if (input.plan.trim() === '') return 'The plan is empty: write the plan in markdown in `plan`.';
  if (input.plan.length > PLAN_MAX_CHARS)
    return `The plan is ${input.plan.length} characters; keep it under ${PLAN_MAX_CHARS} (a person reads it).`;
  return null;
}

export const ExitPlanModeTool = buildTool({
  name: 'ExitPlanMode',
  searchHint: 'present plan approval leave plan mode start coding',
  inputSchema,
  shouldDefer: true,
  description: () => 'Present the plan for the user to approve, and leave plan mode',
  prompt: () => promptText.trim(),

  checkPermissions: async () => ({
    behavior: 'ask',
    message: 'The agent has a plan. Approve it to let it start, or keep planning with your feedback.',
  }),
  isReadOnly: () => true,
  validateInput: (input, ctx) =>
    problem(input, ctx.getAppState().permissionMode ?? ctx.options.permissionMode),

  async call(input, ctx) {
    const state = ctx.getAppState();
    // The approval switched the mode already (the answer's mode); an approval that named none leaves
    // plan mode for the default mode.
    let mode = state.permissionMode ?? ctx.options.permissionMode;
    if (mode === 'plan') {
      mode = 'default';
      ctx.setAppState((prev) => ({ ...prev, permissionMode: 'default' }));
    }
    if (input.plan.trim() === '') throw new ToolInputError('The plan is empty.');
    const now = mode;
    return {
      data: { plan: input.plan, mode: now },
      contextModifier: (c) => ({ ...c, options: { ...c.options, permissionMode: now } }),
    };
  },

  mapToolResultToToolResultBlockParam: (output: ExitPlanModeOutput, toolUseId) =>
    textResult(
      toolUseId,
      `The user approved your plan, and the session left plan mode (the permission mode is now ${output.mode}${output.mode === 'acceptEdits' ? ': file edits in the workspace run without asking' : ''}). Start on it now, following the plan; keep the todo list up to date as you go.\n\nThe approved plan:\n${output.plan}`,
    ),
  // The approval shows the plan while it waits; the result keeps it.
  renderToolUseMessage: () => ({ title: 'Plan', subtitle: 'for your approval', body: { kind: 'none' } }),
  renderToolResultMessage: (output) => ({
    kind: 'markdown',
    text: `*Approved: the session is in ${output.mode} mode now.*

${output.plan}`,
  }),
  toAutoClassifierInput: (input) => `plan: ${input.plan.slice(0, 200)}`,
});
