/**
 * `<tabcode-playground>`: a playground from plain HTML, with one script tag and one element. The
 * config comes from, in increasing precedence: a `<script type="application/json">` child, files as
 * `<script type="text/plain" data-file="path">` children, the attributes below, and the `config`
 * property (for everything else). Changing an attribute or the property mounts the playground again.
 *
 * Attributes: `theme` (light | dark | auto), `height` (`480px`, `70vh`, `auto`), `autorun` (present,
 * `load` or `visible`), `replay` (URL of a replay file), `speed` (replay pace), `prompt`, `sandbox`,
 * `permission-mode`, `base-url`, `model`, `compact`, `panel` (files, terminal…), `open-file`, `hide`
 * (any of: header sessions side terminal prompt), `read-only` (space-separated patterns),
 * `reset-label`, `record`.
 *
 * Events on the element: `tabcode-ready` (detail: the handle), `tabcode-event` (detail: an EmbedEvent),
 * `embed-warning` (detail: a refused field). Methods: send, play, reset, interrupt; `ready` resolves
 * with the handle.
 */
import type { EmbedConfig, EmbedLayout } from '../config.ts';
import type { EmbedHandle } from '../mount.ts';

export const ELEMENT_NAME = 'tabcode-playground';

/** Attributes the element watches. */
const ATTRIBUTES = [
  'theme',
  'height',
  'autorun',
  'replay',
  'speed',
  'prompt',
  'sandbox',
  'permission-mode',
  'base-url',
  'model',
  'compact',
  'panel',
  'open-file',
  'hide',
  'read-only',
  'reset-label',
  'record',
] as const;

const HIDE: Record<string, keyof EmbedLayout> = {
  header: 'header',
  sessions: 'sessions',
  side: 'sidePanel',
  terminal: 'terminal',
  prompt: 'promptBox',
};

/** Removes the common indentation of a file written inside the page (and its first and last blank line). */
export function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, '')
    .replace(/\n\s*$/, '')
    .split('\n');
  // A reduce, not Math.min(...): a file of 200,000 lines would overflow the call stack.
  const cut = lines
    .filter((l) => l.trim())
    .reduce((least, l) => Math.min(least, /^[ \t]*/.exec(l)?.[0].length ?? 0), Number.POSITIVE_INFINITY);
  const by = Number.isFinite(cut) ? cut : 0;
  return `${lines.map((l) => l.slice(by)).join('\n')}\n`;
}

type Mount = (element: HTMLElement, config?: EmbedConfig) => Promise<EmbedHandle>;

/** The element class, bound to a mount function (the package's, which also loads the stylesheet). */
export function createPlaygroundElement(mount: Mount): CustomElementConstructor {
  return class TabcodePlayground extends HTMLElement {
    static observedAttributes = [...ATTRIBUTES];
    #config: EmbedConfig | undefined;
    #handle: Promise<EmbedHandle> | undefined;
    #host: HTMLElement | undefined;
    #scheduled = false;
    #ready: { promise: Promise<EmbedHandle>; resolve: (h: EmbedHandle) => void };

    constructor() {
      super();
      let resolve: (h: EmbedHandle) => void = () => {};
      const promise = new Promise<EmbedHandle>((r) => {
        resolve = r;
      });
      this.#ready = { promise, resolve };
    }

    /** The config beyond the attributes (set it before or after the element is in the page). */
    get config(): EmbedConfig | undefined {
      return this.#config;
    }
    set config(value: EmbedConfig | undefined) {
      this.#config = value;
      this.#remount();
    }

    /** Resolves with the playground's handle once its agent is up. */
    get ready(): Promise<EmbedHandle> {
      return this.#ready.promise;
    }

    send(prompt: string) {
      return this.#handle?.then((h) => h.send(prompt));
    }
    play() {
      return this.#handle?.then((h) => h.play());
    }
    reset() {
      void this.#handle?.then((h) => h.reset());
    }
    interrupt() {
      void this.#handle?.then((h) => h.interrupt());
    }

    connectedCallback() {
      this.#schedule();
    }

    disconnectedCallback() {
      this.#unmount();
    }

    attributeChangedCallback(_name: string, old: string | null, next: string | null) {
      if (old !== next) this.#remount();
    }

    #remount() {
      if (!this.isConnected) return;
      this.#unmount();
      this.#schedule();
    }

    /** Mounts once the page has parsed the element's children and the script set its properties. */
    #schedule() {
      if (this.#scheduled) return;
      this.#scheduled = true;
      const go = () => {
        this.#scheduled = false;
        if (this.isConnected && !this.#handle) this.#mount();
      };
      if (document.readyState === 'loading')
        document.addEventListener('DOMContentLoaded', go, { once: true });
      else queueMicrotask(go);
    }

    #mount() {
      const host = document.createElement('div');
      host.style.height = '100%';
      this.#host = host;
      this.append(host);
      const handle = mount(host, this.#effectiveConfig());
      this.#handle = handle;
      handle.then(
        (h) => {
          if (this.#handle !== handle) return;
          h.subscribe((event) => this.dispatchEvent(new CustomEvent('tabcode-event', { detail: event })));
          this.#ready.resolve(h);
          this.dispatchEvent(new CustomEvent('tabcode-ready', { detail: h }));
        },
        (err: unknown) => console.error('tabcode: the playground could not start', err),
      );
    }

    #unmount() {
      const handle = this.#handle;
      // Out of the page at once (a remount's playground takes its place); stopped once it is up.
      this.#host?.remove();
      this.#handle = undefined;
      this.#host = undefined;
      void handle?.then(
        (h) => h.unmount(),
        () => {},
      );
    }

    /** The config the element stands for (children, attributes, the property). */
    #effectiveConfig(): EmbedConfig {
      let fromJson: Record<string, unknown> = {};
      const files: Record<string, string> = {};
      for (const child of Array.from(this.children)) {
        if (!(child instanceof HTMLScriptElement)) continue;
        if (child.type === 'application/json' && !child.dataset.file) {
          try {
            const parsed = JSON.parse(child.textContent ?? '') as unknown;
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
              fromJson = parsed as typeof fromJson;
            else console.warn('tabcode: the <script type="application/json"> config must be an object.');
          } catch (err) {
            console.warn(`tabcode: the <script type="application/json"> config is not JSON: ${String(err)}`);
          }
        } else if (child.dataset.file) files[child.dataset.file] = dedent(child.textContent ?? '');
      }
      const attr = (name: (typeof ATTRIBUTES)[number]) => this.getAttribute(name);
      const config: Record<string, unknown> = { ...fromJson, ...this.#config };
      if (Object.keys(files).length)
        config.files = { ...(config.files as Record<string, string> | undefined), ...files };
      const layout: Record<string, unknown> = { ...(config.layout as object | undefined) };
      const set = (key: string, value: unknown) => {
        if (value !== null && value !== undefined) config[key] = value;
      };
      set('theme', attr('theme'));
      const height = attr('height');
      if (height !== null) config.height = /^\d+$/.test(height) ? Number(height) : height;
      const autorun = attr('autorun');
      if (autorun !== null) config.autorun = autorun === '' ? true : autorun === 'false' ? false : autorun;
      set('replay', attr('replay'));
      const speed = attr('speed');
      if (speed !== null) config.replaySpeed = Number(speed);
      set('prompt', attr('prompt'));
      set('sandbox', attr('sandbox'));
      set('permissionMode', attr('permission-mode'));
      set('baseURL', attr('base-url'));
      set('model', attr('model'));
      set('resetLabel', attr('reset-label'));
      if (this.hasAttribute('record')) config.record = true;
      const readOnly = attr('read-only');
      if (readOnly !== null) config.readOnly = readOnly.split(/[\s,]+/).filter(Boolean);
      if (this.hasAttribute('compact')) layout.compact = true;
      if (attr('panel') !== null) layout.panel = attr('panel');
      if (attr('open-file') !== null) layout.file = attr('open-file');
      for (const part of (attr('hide') ?? '').split(/[\s,]+/).filter(Boolean)) {
        const key = HIDE[part];
        if (key) layout[key] = false;
        else console.warn(`tabcode: hide="${part}": the parts are ${Object.keys(HIDE).join(', ')}.`);
      }
      if (Object.keys(layout).length) config.layout = layout;
      return config as EmbedConfig;
    }
  };
}
