/**
 * The shell analysis of a Bash call over about 1,000 realistic commands (bench/shell-commands.ts): time
 * per command of the prepare stage (parse and analyse once; read-only and concurrency from it) and of
 * the whole decision path (prepare, then the permission engine on that analysis), p50 and p95; and how
 * many times the parser runs per Bash call.
 *
 * The old path (a hand tokenizer for read-only and concurrency, then just-bash's parser twice for the
 * deny check and the decision) was measured on the same corpus before it was removed; its figures are
 * printed as recorded then.
 */
import { decidePermission } from '../src/core/permissions/engine.ts';
import { rulesFromSet } from '../src/core/permissions/rules.ts';
import { prepareCall } from '../src/core/tool-execution.ts';
import { loadShellParser, shellParserRuns } from '../src/shell/index.ts';
import { BashTool } from '../src/tools/bash/bash.ts';
import { shellCorpus } from './shell-commands.ts';
import { table } from './stats.ts';

export const title =
  'Shell analysis per Bash call, ~1,000 realistic commands: one analysis vs the old two parsers';

/** The old path on this corpus at commit 68d2323 (Node 20, the 2-core machine), before its removal. */
const BEFORE = {
  analysis: { p50: 0.101, p95: 0.212 },
  decision: { p50: 0.121, p95: 0.25 },
  parserRuns: '2.00 + 1 hand tokenizer pass',
};

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const ROUNDS = 3;

export async function run(): Promise<string[]> {
  const corpus = shellCorpus();
  await loadShellParser();
  // The rules the old path was measured with.
  const { rules } = rulesFromSet({ deny: ['Bash(rm:*)'], allow: ['Bash(npm test:*)'] }, 'settings');
  const permCtx = { mode: 'default' as const, root: '/home/user/project', cwd: '/home/user/project' };
  const prepareTimes: number[] = [];
  const decisionTimes: number[] = [];
  let calls = 0;
  let parserRuns = 0;
  let unparsed = 0;
  let readOnly = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, command] of corpus.entries()) {
      const block = { type: 'tool_use' as const, id: `toolu_${i}`, name: 'Bash', input: { command } };
      const runsBefore = shellParserRuns();
      const t0 = performance.now();
      const call = await prepareCall(block, [BashTool]);
      const t1 = performance.now();
      const decision = await decidePermission({
        tool: BashTool,
        input: { command },
        permCtx,
        rules,
        prepared: call.matcher,
      });
      const t2 = performance.now();
      if (round === 0) {
        // The first round warms the JIT; it still counts parser runs and the corpus' make-up.
        calls++;
        parserRuns += shellParserRuns() - runsBefore;
        if (call.matcher !== 'failed' && call.matcher?.kind === 'bash' && !call.matcher.parsed) unparsed++;
        if (call.readOnly) readOnly++;
        if (decision.behavior === 'passthrough') throw new Error('the engine never passes through');
        continue;
      }
      prepareTimes.push(t1 - t0);
      decisionTimes.push(t2 - t0);
    }
  }
  const f = (n: number) => `${n.toFixed(3)} ms`;
  const after = {
    analysis: { p50: percentile(prepareTimes, 50), p95: percentile(prepareTimes, 95) },
    decision: { p50: percentile(decisionTimes, 50), p95: percentile(decisionTimes, 95) },
  };
  return [
    `${corpus.length} commands (${readOnly} read-only, ${unparsed} unparseable), ${ROUNDS - 1} timed rounds`,
    ...table(
      ['per Bash call', 'p50', 'p95', 'old path p50 (recorded)', 'old path p95 (recorded)'],
      [
        [
          'analysis (prepare stage)',
          f(after.analysis.p50),
          f(after.analysis.p95),
          f(BEFORE.analysis.p50),
          f(BEFORE.analysis.p95),
        ],
        [
          'analysis + permission decision',
          f(after.decision.p50),
          f(after.decision.p95),
          f(BEFORE.decision.p50),
          f(BEFORE.decision.p95),
        ],
      ],
    ),
    `parser runs per Bash call: ${(parserRuns / calls).toFixed(2)} (1 for the line, the rest nested script texts: bash -c, eval, sed e, awk system); old path: ${BEFORE.parserRuns}`,
  ];
}
