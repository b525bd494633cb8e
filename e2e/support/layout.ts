/** Layout checks shared by the layout specs (the phone layout, the side panel's tab strip). */
import type { Page } from '@playwright/test';

/**
 * What a screen clips or hides: controls under `scope` whose text is cut (content wider than the
 * box) or that reach past the screen, and header items that overlap one another.
 */
export async function clipped(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    const name = (el: Element) =>
      `${(el as HTMLElement).dataset?.testid ?? el.getAttribute('class') ?? el.tagName} "${el.textContent?.trim().slice(0, 24)}"`;
    for (const root of document.querySelectorAll(sel)) {
      for (const el of root.querySelectorAll<HTMLElement>(
        'button, select, input, textarea, .badge, [role="tab"]',
      )) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push(`${name(el)} reaches past the screen`);
        const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
        if (!text && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} cuts its text`);
        // A menu shows its chosen option's text beside its arrow: cut when the text is wider than that room.
        if (el instanceof HTMLSelectElement && el.selectedOptions[0]) {
          const css = getComputedStyle(el);
          const ctx = document.createElement('canvas').getContext('2d');
          if (ctx) ctx.font = css.font;
          const arrow = 20;
          const room =
            el.clientWidth - Number.parseFloat(css.paddingLeft) - Number.parseFloat(css.paddingRight) - arrow;
          const label = el.selectedOptions[0].text;
          if ((ctx?.measureText(label).width ?? 0) > room + 1)
            out.push(`${name(el)} cuts its choice "${label}"`);
        }
        // An empty field's placeholder on one line: wider than the field, it wraps into rows it does not have.
        if (text && !el.value && el.placeholder) {
          const css = getComputedStyle(el);
          const ctx = document.createElement('canvas').getContext('2d');
          if (ctx) ctx.font = css.font;
          const room =
            el.clientWidth - Number.parseFloat(css.paddingLeft) - Number.parseFloat(css.paddingRight);
          const need = ctx?.measureText(el.placeholder).width ?? 0;
          if (need > room + 1) out.push(`${name(el)} cuts its placeholder "${el.placeholder}"`);
        }
      }
    }
    const header = document.querySelector('.app-header');
    const items = header
      ? [...header.querySelectorAll<HTMLElement>('.brand-logo, .header-right > *')].filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.height > 0;
        })
      : [];
    for (let i = 0; i < items.length; i++)
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i].getBoundingClientRect();
        const b = items[j].getBoundingClientRect();
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5)
          out.push(`${name(items[i])} overlaps ${name(items[j])}`);
      }
    return out;
  }, scope);
}
