/**
 * The side panel: tabs for files, terminal, preview, todos and usage (and the MCP and permission-rules
 * panels when a build has them). Arrow keys move between tabs (ARIA tabs pattern).
 */
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import type { SideTab } from './settings-store.ts';

export interface SideTabDef {
  id: SideTab;
  label: string;
  /** A count or dot shown on the tab. */
  badge?: string;
  render: () => ReactNode;
}

export function SidePanel({
  tabs,
  active,
  onSelect,
  inStrip,
}: {
  tabs: SideTabDef[];
  active: SideTab;
  onSelect: (tab: SideTab) => void;
  /**
   * The tabs the strip offers (default: all). At phone width the page's own switcher picks Files and
   * Terminal, so the strip there holds the rest, or is left out.
   */
  inStrip?: (id: SideTab) => boolean;
}) {
  const current = tabs.find((t) => t.id === active) ?? tabs[0];
  const strip = inStrip ? tabs.filter((t) => inStrip(t.id)) : tabs;
  // A pane mounts the first time its tab opens (its code may load then), and stays mounted after.
  const [opened, setOpened] = useState<ReadonlySet<SideTab>>(() => new Set([current.id]));
  if (!opened.has(current.id)) setOpened(new Set([...opened, current.id]));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = strip.findIndex((t) => t.id === current.id);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % strip.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + strip.length) % strip.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = strip.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onSelect(strip[next].id);
    requestAnimationFrame(() => document.getElementById(`side-tab-${strip[next].id}`)?.focus());
  };
  return (
    <aside className="side-panel" aria-label="Side panel" data-testid="side-panel">
      {strip.length > 0 && (
        <div className="side-tabs" role="tablist" aria-label="Side panels" onKeyDown={onKeyDown}>
          {strip.map((t) => (
            <button
              key={t.id}
              id={`side-tab-${t.id}`}
              type="button"
              role="tab"
              className="side-tab"
              aria-selected={t.id === current.id}
              aria-controls={`side-pane-${t.id}`}
              tabIndex={t.id === current.id ? 0 : -1}
              data-testid={`tab-${t.id}`}
              onClick={() => onSelect(t.id)}
            >
              {t.label}
              {t.badge && <span className="tab-badge">{t.badge}</span>}
            </button>
          ))}
        </div>
      )}
      {/* Every pane stays mounted (a file selection or a terminal survives a tab switch); only one shows. */}
      {tabs.map((t) => (
        <div
          key={t.id}
          className="side-pane"
          role="tabpanel"
          id={`side-pane-${t.id}`}
          {...(strip.some((s) => s.id === t.id)
            ? { 'aria-labelledby': `side-tab-${t.id}` }
            : { 'aria-label': t.label })}
          hidden={t.id !== current.id}
        >
          {opened.has(t.id) && t.render()}
        </div>
      ))}
    </aside>
  );
}
