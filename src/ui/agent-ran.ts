/**
 * Whether the agent has run a command in this sandbox (an `exec-start` of origin 'agent'): the terminal
 * pane mounts then, hidden if its tab is not open, so what it would show is kept across a reload even
 * when the tab was never opened (Terminal.tsx keeps its screen while mounted). Tiny: no xterm here.
 */
import { useEffect, useState } from 'react';
import type { Sandbox, SandboxEvent } from '../sandbox/sandbox.ts';

const agentRun = (e: SandboxEvent) => e.type === 'exec-start' && e.origin === 'agent';

export function useAgentRan(sandbox: Sandbox | null | undefined): boolean {
  const [ran, setRan] = useState(false);
  useEffect(() => {
    if (!sandbox || ran) return;
    if (sandbox.recentEvents().some(agentRun)) {
      setRan(true);
      return;
    }
    const off = sandbox.onEvent((e) => {
      if (agentRun(e)) setRan(true);
    });
    return off;
  }, [sandbox, ran]);
  return ran;
}
