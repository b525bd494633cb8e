/**
 * The usage meter's detail view: session totals and estimated cost, then one row per model request
 * (input, output, cache read, cache write) that opens to an estimated tools / system / messages split.
 * Loaded when the Usage tab first opens (side-tabs.tsx); the header's meter is UsageMeter.tsx.
 */
import { Fragment, memo, useState } from 'react';
import type { RequestUsage } from '../agent/sessions-store.ts';
import type { ToolSearchModeInfo } from '../core/deferred-tools.ts';
import { ContextMeter, type ContextMeterProps } from './ContextMeter.tsx';
import {
  estimateCost,
  formatCost,
  formatTokens,
  splitInputTokens,
  type UsageTotals,
  usageTotals,
} from './usage-state.ts';

function UsagePanelView({
  requests,
  demo,
  toolSearch,
  context,
}: {
  requests: readonly RequestUsage[];
  demo?: boolean;
  /** The session's ToolSearch mode and why (describeToolSearchMode); the line is left out without it. */
  toolSearch?: ToolSearchModeInfo;
  /** The context meter's figures (used / window). */
  context?: Omit<ContextMeterProps, 'variant' | 'onOpen'>;
}) {
  const totals = usageTotals(requests);
  const [openRow, setOpenRow] = useState<number | null>(null);
  return (
    <div className="panel-body usage-panel" data-testid="usage-panel">
      <div className="panel-head">
        <span className="panel-title">Usage</span>
        <span className="muted panel-count">
          {totals.requests} request{totals.requests === 1 ? '' : 's'}
        </span>
      </div>
      {demo && (
        <p className="muted" data-testid="usage-demo-note">
          Scripted demo: these token counts come from the script, not from a model, and nothing is billed.
        </p>
      )}
      {toolSearch && (
        <p className="muted" data-testid="usage-tool-search" data-mode={toolSearch.mode}>
          ToolSearch: {toolSearch.mode} mode. {toolSearch.why}
        </p>
      )}
      {context && <ContextMeter {...context} variant="panel" />}
      <Totals totals={totals} demo={demo} />
      {requests.length === 0 ? (
        <div className="panel-empty muted">Token counts appear here after the first reply.</div>
      ) : (
        <table className="usage-table" data-testid="usage-table">
          <thead>
            <tr>
              <th>#</th>
              <th title="Uncached input tokens">In</th>
              <th title="Output tokens">Out</th>
              <th title="Input tokens read from the prompt cache">Cache read</th>
              <th title="Input tokens written to the prompt cache">Cache write</th>
              <th title="Estimated cost at list prices">Cost</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: requests are positional
              <Fragment key={i}>
                <tr
                  className="usage-row"
                  data-testid="usage-row"
                  onClick={() => setOpenRow(openRow === i ? null : i)}
                >
                  <td>
                    {/* The row's toggle for keyboards and screen readers (a row itself cannot be expanded). */}
                    <button
                      type="button"
                      className="link-btn usage-row-toggle"
                      aria-expanded={openRow === i}
                      aria-label={`Request ${i + 1}: ${openRow === i ? 'hide' : 'show'} its details`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpenRow(openRow === i ? null : i);
                      }}
                    >
                      {i + 1}
                    </button>
                  </td>
                  <td data-field="input">{formatTokens(r.inputTokens)}</td>
                  <td data-field="output">{formatTokens(r.outputTokens)}</td>
                  <td data-field="cache-read">{formatTokens(r.cacheReadTokens)}</td>
                  <td data-field="cache-write">{formatTokens(r.cacheWriteTokens)}</td>
                  <td>{demo ? '—' : formatCost(estimateCost(r))}</td>
                </tr>
                {openRow === i && (
                  <tr className="usage-detail-row">
                    <td colSpan={6}>
                      <RequestDetail request={r} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted usage-note">
        Costs are estimates at list prices per model family (cache writes 1.25×, cache reads 0.1× of input).
      </p>
    </div>
  );
}

function Totals({ totals, demo }: { totals: UsageTotals; demo?: boolean }) {
  return (
    <dl className="usage-totals" data-testid="usage-totals">
      <div>
        <dt title="Every input token: uncached, read from the cache and written to it (the header's “in”)">
          Input in all
        </dt>
        <dd data-field="input-all">
          {formatTokens(totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens)}
        </dd>
      </div>
      <div>
        <dt title="Input tokens not served from or written to the prompt cache">Uncached input</dt>
        <dd data-field="input">{formatTokens(totals.inputTokens)}</dd>
      </div>
      <div>
        <dt>Output</dt>
        <dd data-field="output">{formatTokens(totals.outputTokens)}</dd>
      </div>
      <div>
        <dt>Cache read</dt>
        <dd data-field="cache-read">{formatTokens(totals.cacheReadTokens)}</dd>
      </div>
      <div>
        <dt>Cache write</dt>
        <dd data-field="cache-write">{formatTokens(totals.cacheWriteTokens)}</dd>
      </div>
      <div>
        <dt>Est. cost</dt>
        <dd data-field="cost">{demo ? 'none (demo)' : formatCost(totals.cost)}</dd>
      </div>
    </dl>
  );
}

function RequestDetail({ request }: { request: RequestUsage }) {
  const split = splitInputTokens(request);
  const total = request.inputTokens + request.cacheReadTokens + request.cacheWriteTokens;
  return (
    <div className="usage-detail" data-testid="usage-detail">
      <div className="muted">
        {request.model || 'model unknown'} · {new Date(request.at).toLocaleTimeString()} ·{' '}
        {formatTokens(total)} input tokens in all
      </div>
      {split ? (
        <>
          <div className="split-bar" aria-hidden="true">
            <span className="split-tools" style={{ flexGrow: split.tools }} />
            <span className="split-system" style={{ flexGrow: split.system }} />
            <span className="split-messages" style={{ flexGrow: split.messages }} />
          </div>
          <ul className="split-legend">
            <li data-part="tools">
              <span className="swatch split-tools" /> Tools ≈ {formatTokens(split.tools)}
            </li>
            <li data-part="system">
              <span className="swatch split-system" /> System ≈ {formatTokens(split.system)}
            </li>
            <li data-part="messages">
              <span className="swatch split-messages" /> Messages ≈ {formatTokens(split.messages)}
            </li>
          </ul>
          <div className="muted usage-note">
            Split estimated from the size of each part of the request body.
          </div>
        </>
      ) : (
        <div className="muted">The request's size is unknown, so its split cannot be estimated.</div>
      )}
    </div>
  );
}

type UsagePanelProps = Parameters<typeof UsagePanelView>[0];

/**
 * Props equal for rendering: the same values, with the ToolSearch line compared by its text (the session
 * describes its mode afresh on every render of the page).
 */
function sameProps(a: UsagePanelProps, b: UsagePanelProps): boolean {
  return (
    a.requests === b.requests &&
    a.demo === b.demo &&
    a.context === b.context &&
    a.toolSearch?.mode === b.toolSearch?.mode &&
    a.toolSearch?.why === b.toolSearch?.why
  );
}

/** UsagePanel, re-rendered only when its props change. */
export const UsagePanel = memo(UsagePanelView, sameProps);
