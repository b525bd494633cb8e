/** The usage meter in the header: the session's token totals and cost; a click opens the Usage panel. */
import type { RequestUsage } from '../agent/sessions-store.ts';
import { formatCost, formatTokens, usageTotals } from './usage-state.ts';

/** The compact meter in the header: session totals; a click opens the Usage panel. */
export function UsageMeter({
  requests,
  demo,
  onOpen,
}: {
  requests: readonly RequestUsage[];
  /** A scripted demo: no cost is shown, since no model ran and nothing is billed. */
  demo?: boolean;
  onOpen: () => void;
}) {
  const t = usageTotals(requests);
  const last = requests[requests.length - 1];
  return (
    <button
      type="button"
      className="usage-meter"
      data-testid="usage-meter"
      onClick={onOpen}
      title={
        last
          ? `Last request: ${last.inputTokens} in, ${last.outputTokens} out, ${last.cacheReadTokens} cache read, ${last.cacheWriteTokens} cache write`
          : 'No requests yet'
      }
    >
      <span>
        <span className="muted">in</span>{' '}
        {formatTokens(t.inputTokens + t.cacheReadTokens + t.cacheWriteTokens)}
      </span>
      <span>
        <span className="muted">out</span> {formatTokens(t.outputTokens)}
      </span>
      <span data-testid="usage-cost">{demo ? 'demo' : formatCost(t.cost)}</span>
    </button>
  );
}
