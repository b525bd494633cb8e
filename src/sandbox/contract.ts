/**
 * The sandbox contract under vitest: `runSandboxContract(name, factory)` declares one test per case of
 * contract-cases.ts against sandboxes made by `factory` (a fresh one per case).
 */
import { describe, it } from 'vitest';
import { CONTRACT_CASES, type ContractFactory, runContractCase } from './contract-cases.ts';

export type { ContractFactory, ContractTarget } from './contract-cases.ts';

/** Per-case time limit (the 5 MB and timeout cases need a few seconds on a slow machine). */
const CASE_TIMEOUT_MS = 30_000;

export function runSandboxContract(name: string, factory: ContractFactory): void {
  describe(`sandbox contract: ${name}`, () => {
    for (const c of CONTRACT_CASES) {
      it(c.name, () => runContractCase(c, factory), CASE_TIMEOUT_MS);
    }
  });
}
