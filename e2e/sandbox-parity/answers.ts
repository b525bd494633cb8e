/**
 * The Node half of the sandbox parity check: the same just-bash sandbox the unit tests use
 * (createJustBashSandbox, the demo project, the in-process node and Python workers); the setup and
 * every group of corpus commands go through the real Bash tool as the session runs them, exactly the
 * calls the page gets. Loaded through Vite by record.ts (the tool imports its prompt with `?raw`).
 */
import type { ExpectedAnswer } from './types.ts';

/** Runs the corpus in Node and returns the answers, in corpus order. */
export async function recordAnswers(): Promise<ExpectedAnswer[]> {
  const { createToolUseContext } = await import('../../src/core/context.ts');
  const { prepareCall, runToolCall } = await import('../../src/core/tool-execution.ts');
  const { createJustBashSandbox } = await import('../../src/sandbox/just-bash.ts');
  const { DEMO_PROJECT } = await import('../../src/sandbox/demo-project.ts');
  const { BashTool } = await import('../../src/tools/bash/bash.ts');
  const { createInProcessNodeWorker } = await import('../../src/runtimes/node/in-process-worker.ts');
  const { createInProcessPythonWorker } = await import('../../src/runtimes/python/in-process-worker.ts');
  const { deferredWorker } = await import('../../src/runtimes/python/deferred-worker.ts');
  const { corpusGroups, groupScript, SETUP, splitGroup } = await import('./corpus.ts');
  const { normalise } = await import('./normalise.ts');

  const sandbox = await createJustBashSandbox({
    files: { ...DEMO_PROJECT },
    workers: {
      node: createInProcessNodeWorker,
      python: () => deferredWorker(async () => createInProcessPythonWorker()),
    },
    fetch: null,
  });
  const tools = [BashTool];
  const bash = async (command: string): Promise<string> => {
    const ctx = createToolUseContext({ sandbox, options: { permissionMode: 'bypassPermissions', tools } });
    const call = await prepareCall(
      { type: 'tool_use', id: 'toolu_parity', name: 'Bash', input: { command } },
      tools,
    );
    const outcome = await runToolCall(call, ctx, {
      tools,
      canUseTool: async () => ({ behavior: 'allow' }),
      emit: () => {},
    });
    const content = outcome.block.content;
    return typeof content === 'string' ? content : JSON.stringify(content);
  };
  try {
    const setup = await bash(SETUP);
    if (setup !== 'setup-done') throw new Error(`setup failed: ${setup}`);
    const answers: ExpectedAnswer[] = [];
    for (const [g, group] of corpusGroups().entries()) {
      const text = await bash(groupScript(g, group));
      const split = splitGroup(text, group.length);
      if (!split)
        throw new Error(`group ${g} did not split into ${group.length} answers:\n${text.slice(0, 2000)}`);
      for (const [i, command] of group.entries()) {
        answers.push({
          command,
          stdout: normalise(split[i].stdout),
          stderr: normalise(split[i].stderr),
          exitCode: split[i].exitCode,
        });
      }
    }
    return answers;
  } finally {
    await sandbox.dispose();
  }
}
