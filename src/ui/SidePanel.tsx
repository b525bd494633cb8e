/**
 * The side panel: tabs for files, terminal, preview, todos and usage (and the MCP and permission-rules
 * panels when a build has them). Arrow keys move between tabs (ARIA tabs pattern), those in the More
 * menu too. The strip is one row: the tabs it has no room for go into its More menu (tab-overflow.ts),
 * measured again when the panel or a tab (its badge, the font) changes width.
 */
import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import type { SideTab } from './settings-store.ts';
import { overflowing } from './tab-overflow.ts';

export interface SideTabDef {
  id: SideTab;
  label: string;
  /** A count or dot shown on the tab. */
  badge?: string;
  render: () => ReactNode;
  /** Mount the pane now, hidden while its tab is not open (the terminal once the agent ran something). */
  mountNow?: boolean;
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
  // A pane mounts the first time its tab opens (its code may load then), or when it asks to (mountNow),
  // and stays mounted after.
  const [opened, setOpened] = useState<ReadonlySet<SideTab>>(() => new Set([current.id]));
  const due = tabs.filter((t) => (t.id === current.id || t.mountNow) && !opened.has(t.id)).map((t) => t.id);
  if (due.length) setOpened(new Set([...opened, ...due]));
  const listRef = useRef<HTMLDivElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  /** The ids of the tabs in the More menu, space-separated ('' when the row holds every tab). */
  const [over, setOver] = useState('');
  const [menuOpen, setMenuOpen] = useState(false);
  const ids = strip.map((t) => t.id).join(' ');
  useLayoutEffect(() => {
    const list = listRef.current;
    const more = moreRef.current;
    if (!list || !more) return;
    const tabs = [...list.children] as HTMLElement[];
    const width = (el: Element) => el.getBoundingClientRect().width;
    const measure = () => {
      // The row is the list's width, and the More button's when it shows (the list gives it that room).
      const room = width(list) + (more.dataset.idle === undefined ? width(more) : 0);
      const out = overflowing(tabs.map(width), room, width(more), ids.split(' ').indexOf(current.id));
      setOver(
        tabs
          .filter((_, i) => out[i])
          .map((t) => t.dataset.id)
          .join(' '),
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const el of [list.parentElement ?? list, more, ...tabs]) observer.observe(el);
    return () => observer.disconnect();
  }, [ids, current.id]);
  const inMenu = over ? strip.filter((t) => over.split(' ').includes(t.id)) : [];
  const pick = (id: SideTab) => {
    onSelect(id);
    requestAnimationFrame(() => document.getElementById(`side-tab-${id}`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = strip.findIndex((t) => t.id === current.id);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % strip.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + strip.length) % strip.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = strip.length - 1;
    if (next < 0) return;
    e.preventDefault();
    pick(strip[next].id);
  };
  /** Up and Down move through the menu's items. */
  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...e.currentTarget.children] as HTMLElement[];
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const i = items.indexOf(document.activeElement as HTMLElement);
    items[(i + step + items.length) % items.length]?.focus();
  };
  return (
    <aside className="side-panel" aria-label="Side panel" data-testid="side-panel">
      {strip.length > 0 && (
        <div className="side-strip">
          <div
            ref={listRef}
            className="side-tabs"
            role="tablist"
            aria-label="Side panels"
            onKeyDown={onKeyDown}
          >
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
                data-id={t.id}
                data-over={inMenu.includes(t) || undefined}
                onClick={() => onSelect(t.id)}
              >
                {t.label}
                {t.badge && <span className="tab-badge">{t.badge}</span>}
              </button>
            ))}
          </div>
          <button
            ref={moreRef}
            type="button"
            className="side-tab side-more"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            popoverTarget={menuId}
            data-testid="side-more"
            data-idle={inMenu.length === 0 || undefined}
            onClick={(e) => {
              // The menu opens under the button, its right edge at the button's.
              const r = e.currentTarget.getBoundingClientRect();
              const menu = menuRef.current;
              if (menu) {
                menu.style.top = `${r.bottom}px`;
                menu.style.right = `${document.documentElement.clientWidth - r.right}px`;
              }
            }}
          >
            More <span aria-hidden="true">▾</span>
          </button>
          <div
            ref={menuRef}
            id={menuId}
            popover="auto"
            role="menu"
            aria-label="More side panels"
            className="side-more-menu"
            onKeyDown={onMenuKey}
            onToggle={(e) => {
              setMenuOpen(e.newState === 'open');
              if (e.newState === 'open') (e.currentTarget.firstElementChild as HTMLElement | null)?.focus();
            }}
          >
            {inMenu.map((t) => (
              <button
                key={t.id}
                type="button"
                role="menuitem"
                className="side-more-item"
                data-testid={`side-more-${t.id}`}
                onClick={() => {
                  menuRef.current?.hidePopover();
                  pick(t.id);
                }}
              >
                {t.label}
                {t.badge && <span className="tab-badge">{t.badge}</span>}
              </button>
            ))}
          </div>
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
