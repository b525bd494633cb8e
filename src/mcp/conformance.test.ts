/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, a devDependency) run in
 * `npm test`: every client scenario it lists, against tabcode's MCP layer (manager, connection, OAuth
 * provider, adapters, the loop's tool-call path) through the driver in e2e/mcp/conformance/run.ts.
 * The suite starts its own servers and authorization servers on loopback. The expected-failures file
 * is empty, so any failing scenario fails this test; a missing suite fails it too, saying so.
 */
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_PACKAGE, conformanceCli, runConformance } from '../../e2e/mcp/conformance/run.ts';

/** The whole suite runs its scenarios in parallel: about 20 s on two busy cores. */
const SUITE_TIMEOUT_MS = 150_000;

describe('MCP conformance suite (client scenarios)', () => {
  it(
    'tabcode passes every client scenario of the suite',
    async () => {
      if (!conformanceCli()) {
        throw new Error(
          process.env.MCP_CONFORMANCE_DIR
            ? `MCP_CONFORMANCE_DIR=${process.env.MCP_CONFORMANCE_DIR} has no dist/index.js, so the MCP conformance suite cannot run.`
            : `${CONFORMANCE_PACKAGE} is not installed (it is a devDependency: run npm install), so the MCP conformance suite cannot run.`,
        );
      }
      const lines: string[] = [];
      const report = await runConformance({ log: (line) => lines.push(line) });
      const tabcode = report.clients.find((c) => c.label === 'tabcode');
      const failed = (tabcode?.outcomes ?? []).filter((o) => !o.passed);
      // On failure, the message names each scenario and its failed checks.
      expect(failed, lines.join('\n')).toEqual([]);
      expect(report.unexpected, lines.join('\n')).toEqual([]);
      // Every scenario the suite lists ran (a parse of the suite's output that found none cannot pass).
      expect(report.listed.length).toBeGreaterThanOrEqual(26);
      expect(tabcode?.outcomes.map((o) => o.scenario)).toEqual(report.listed);
      expect(tabcode?.passed).toBe(report.listed.length);
      // Say what ran, for the CI log.
      console.log(lines.join('\n'));
    },
    SUITE_TIMEOUT_MS,
  );
});
