/**
 * EnterPlanMode: asks the user to switch the session to plan mode. It asks at every call (its own
 * permission check), even in bypassPermissions mode; once approved it sets the mode through the app
 * state, which the session applies (the mode switch shows it at once).
 */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';

const inputSchema = z.strictObject({});

export interface EnterPlanModeOutput {
  message: string;
}

/** What the model reads once the session is in plan mode. */
export const PLAN_MODE_ENTERED =
  'Entered plan mode. Explore the code and design an approach: only read-only tools run now, and nothing is changed. When the plan is ready, present it with ExitPlanMode for the user to approve.';

export const EnterPlanModeTool = buildTool({
  name: 'EnterPlanMode',
  searchHint: 'plan mode design approach before changing read-only explore',
  inputSchema,
  shouldDefer: true,
  description: () => 'Ask the user to switch to plan mode (explore and plan before changing anything)',
  prompt: () => promptText.trim(),

  checkPermissions: async () => ({
    behavior: 'ask',
    message: 'The agent wants to switch to plan mode: it will only read and plan until you approve a plan.',
  }),
  isReadOnly: () => true,
  validateInput: (_input, ctx) =>
    ctx.getAppState().permissionMode === 'plan' || ctx.options.permissionMode === 'plan'
      ? 'The session is already in plan mode: explore, then present the plan with ExitPlanMode.'
      : null,

  async call(_input, ctx) {
    if (ctx.getAppState().permissionMode === 'plan') throw new ToolInputError('Already in plan mode.');
    ctx.setAppState((prev) => ({ ...prev, permissionMode: 'plan' }));
    return {
      data: { message: PLAN_MODE_ENTERED },
      // Later calls of this turn are decided in plan mode too.
      contextModifier: (c) => ({ ...c, options: { ...c.options, permissionMode: 'plan' } }),
    };
  },

  mapToolResultToToolResultBlockParam: (output: EnterPlanModeOutput, toolUseId) =>
    textResult(toolUseId, output.message),
  renderToolUseMessage: () => ({
    title: 'Enter plan mode',
    subtitle: 'explore and plan first',
    body: { kind: 'none' },
  }),
  renderToolResultMessage: () => ({ kind: 'text', text: 'Plan mode is on: only read-only tools run.' }),
  toAutoClassifierInput: () => 'enter plan mode',
});
