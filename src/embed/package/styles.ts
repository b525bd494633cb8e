/**
 * The package's stylesheet (`tabcode.css`, scoped to `.tabcode-root`): a page that loaded it (a `<link>`,
 * or a bundler's `import 'tabcode/style.css'`) has it; otherwise the first playground adds a `<link>` to
 * the copy beside the package's script, so a plain HTML page needs one script tag and nothing else.
 */

/** The custom property the stylesheet sets on `.tabcode-root` (how a page's copy is recognised). */
export const STYLE_PROBE_PROPERTY = '--tabcode-css';
/** The stylesheet's file name beside the package's entry script. */
export const STYLESHEET_FILE = 'tabcode.css';

let added: Promise<void> | undefined;

/** Whether the page already has the stylesheet. */
function hasStyles(doc: Document): boolean {
  const probe = doc.createElement('div');
  probe.className = 'tabcode-root';
  probe.hidden = true;
  doc.body.append(probe);
  const value = getComputedStyle(probe).getPropertyValue(STYLE_PROBE_PROPERTY);
  probe.remove();
  return value.trim() !== '';
}

/**
 * Makes sure the page has the stylesheet; resolves once it is loaded (or failed: then the playground is
 * unstyled and the console says how to add it). Never rejects.
 */
export function ensureStyles(doc: Document, href: string): Promise<void> {
  if (added) return added;
  if (hasStyles(doc)) {
    added = Promise.resolve();
    return added;
  }
  added = new Promise<void>((resolve) => {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.dataset.tabcode = '';
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        console.warn(
          `tabcode: the stylesheet ${href} could not be loaded; add <link rel="stylesheet" href=".../tabcode/dist-lib/${STYLESHEET_FILE}"> (or import 'tabcode/style.css') to the page.`,
        );
        resolve();
      },
      { once: true },
    );
    doc.head.append(link);
  });
  return added;
}
