/** Hooks (Claude Code's contract) for the loop, the tool-call path and the agent session. */
export { hooksFromSettings, hooksFromSettingsText, matcherMatches, type ParsedHooks } from './config.ts';
export { checkHookOutput, HOOK_BLOCKING_EXIT_CODE, parseHookStdout } from './output.ts';
export { commandWithStdin, createHookRunner, HOOK_SHELL_SESSION, type HookRunnerOptions } from './runner.ts';
export {
  type PreToolUseVerdict,
  runPostToolUseHooks,
  runPreToolUseHooks,
  withResultNote,
} from './tool-hooks.ts';
export * from './types.ts';
