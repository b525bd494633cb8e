/**
 * Issue 17's fuzz suite: 10,000 generated tool inputs through the real tool-call path (prepareCall →
 * runToolCall: shape limits, zod, validation, the tool's own permission check, the tool itself) against
 * the real just-bash sandbox. Inputs are generated from a fixed seed (a small PRNG: fast-check is not
 * installed), so every run tries the same inputs and a failure names the seed and index that found it;
 * such an input then belongs in FIXED_SEEDS below. Each call must end in exactly one tool_result for
 * its block, sendable as JSON, well-formed Unicode, and an is_error text that says something (never a
 * crash message); the sandbox must still run commands and keep files at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolUseContext } from '../core/context.ts';
import { hasLoneSurrogate } from '../core/input-shape.ts';
import type { AnyTool } from '../core/tool.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../core/tool-execution.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { getAllBaseTools } from './registry.ts';

/** Inputs generated per run. */
const INPUTS = 10_000;
const SEED = 0x17_17;
/** Inputs that once found a failure (seed, index), replayed first. None so far. */
const FIXED_SEEDS: { seed: number; index: number }[] = [];

/** Tools that wait on a person, the network or a sub-agent: outside what a tool call alone can do here. */
const SKIPPED = new Set([
  'Agent',
  'AskUserQuestion',
  'WebFetch',
  'WebSearch',
  'Skill',
  'EnterPlanMode',
  'ExitPlanMode',
]);

/** mulberry32: a tiny seeded PRNG (deterministic inputs). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOT = '/home/user/project';
const NASTY_STRINGS = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '/etc/passwd',
  `${ROOT}/../outside.txt`,
  `${ROOT}/a.txt`,
  `${ROOT}/src`,
  `${ROOT}/new/dir/file.txt`,
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '😀',
  '<script>alert(1)</script>',
  '$(rm -rf /)',
  '`id`',
  '; echo pwned > /tmp/pwned',
  '*',
  '**/*',
  '[',
  '(',
  '\\',
  '(a+)+$',
  '.*',
  '{',
  '%s%n',
  '\r\n',
  '\u202e',
  'select:Bash',
  'select:',
  '+',
  'mcp__',
  '~',
  '~/x',
  '-rf',
  '--help',
  'NaN',
  'null',
  '0',
  '-1',
];
const KEYS = [
  'file_path',
  'path',
  'pattern',
  'command',
  'content',
  'old_string',
  'new_string',
  'replace_all',
  'offset',
  'limit',
  'query',
  'glob',
  'output_mode',
  'timeout',
  'run_in_background',
  'todos',
  'bash_id',
  'shell_id',
  'notebook_path',
  'new_source',
  'cell_id',
  'edit_mode',
  '-i',
  '-n',
  '-A',
  'multiline',
  'head_limit',
  'max_results',
  '__proto__',
  'constructor',
];

/** A random JSON value of bounded size (no value deeper than `depth`). */
function value(rand: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const r = rand();
  if (depth <= 0 || r < 0.35) return pick(NASTY_STRINGS) + (rand() < 0.2 ? pick(NASTY_STRINGS) : '');
  if (r < 0.45) return pick([0, -1, 1, 1.5, 2 ** 53, -(2 ** 31), 1e308, 600_000, 3]);
  if (r < 0.52) return pick([true, false, null]);
  if (r < 0.56) return 'x'.repeat(Math.floor(rand() * 5_000));
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--) out[pick(KEYS)] = value(rand, depth - 1);
  return out;
}

/** An input for `tool`: mostly its own fields with hostile values, sometimes anything at all. */
function inputFor(tool: AnyTool, rand: () => number): unknown {
  const r = rand();
  if (r < 0.1) return value(rand, 3);
  if (r < 0.13) {
    let deep: unknown = 'x';
    for (let i = 0; i < 100 + Math.floor(rand() * 200); i++) deep = [deep];
    return { [KEYS[0]]: deep };
  }
  const schema = tool.inputJSONSchema as { properties?: Record<string, unknown> } | undefined;
  const fields = Object.keys(schema?.properties ?? {});
  const out: Record<string, unknown> = {};
  for (const field of fields) if (rand() < 0.7) out[field] = value(rand, 2);
  return out;
}

let sandbox: Sandbox;
let tools: AnyTool[];

beforeAll(async () => {
  sandbox = await createJustBashSandbox({
    files: { 'a.txt': 'alpha\nbeta\n', 'src/x.js': 'export const x = 1;\n' },
  });
  tools = getAllBaseTools().filter((t) => !SKIPPED.has(t.name));
});
afterAll(() => sandbox.dispose());

const CRASH = /Maximum call stack|is not a function|Cannot read propert|undefined is not|\[object Object\]/;

/** Runs one generated input; true when its result is an is_error. */
async function check(seed: number, index: number): Promise<boolean> {
  const rand = prng(seed * 100_003 + index);
  const tool = tools[Math.floor(rand() * tools.length)];
  const input = inputFor(tool, rand);
  const block = { type: 'tool_use' as const, id: `toolu_fuzz${index}`, name: tool.name, input };
  const where = `seed ${seed}, index ${index}: ${tool.name}`;
  const ctx = createToolUseContext({ sandbox, options: { tools, permissionMode: 'bypassPermissions' } });
  const call = await prepareCall(block, tools);
  const out = await runToolCall(call, ctx, { tools, canUseTool: defaultCanUseTool, emit: () => {} });
  const result = out.block;
  expect(result.tool_use_id, where).toBe(block.id);
  const text = JSON.stringify(result.content);
  expect(typeof text, where).toBe('string');
  expect(hasLoneSurrogate(text), where).toBe(false);
  if (result.is_error) {
    expect(text.length, where).toBeGreaterThan(4);
    expect(text, where).not.toMatch(CRASH);
  }
  return result.is_error === true;
}

describe('generated tool inputs through the real tool-call path', () => {
  it('replays the inputs that once failed', async () => {
    for (const { seed, index } of FIXED_SEEDS) await check(seed, index);
  });

  it(`${INPUTS.toLocaleString('en')} inputs: one clear tool_result each, the sandbox intact`, {
    timeout: 120_000,
  }, async () => {
    const started = Date.now();
    let errors = 0;
    for (let i = 0; i < INPUTS; i++) if (await check(SEED, i)) errors++;
    // Both paths were exercised: refused inputs and calls that ran.
    expect(errors).toBeGreaterThan(INPUTS / 10);
    expect(INPUTS - errors).toBeGreaterThan(INPUTS / 100);
    // The sandbox still runs commands and keeps files (a generated Bash may have removed the project).
    const files = await sandbox.exec(
      `mkdir -p ${ROOT}/after && echo kept > ${ROOT}/after/f && cat ${ROOT}/after/f`,
    );
    expect(files.stdout).toBe('kept\n');
    const echo = await sandbox.exec('echo still-here');
    expect(echo.stdout).toBe('still-here\n');
    console.log(`fuzz: ${INPUTS} inputs (${errors} is_error) in ${Date.now() - started} ms`);
  });
});
