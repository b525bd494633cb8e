/**
 * One vocabulary for the names of what tabcode keeps in the browser: every IndexedDB database (each
 * idb-keyval store), localStorage key and Web Lock name starts with a storage namespace, so the embed
 * and the stand-alone page of one build, or two builds on one origin, never open each other's storage.
 *
 * The namespaces are chosen at build time (vite.config.ts, vite.lib.config.ts):
 * - TABCODE_STORAGE_NAMESPACE, the stand-alone page's: default `tabcode`, today's names, so an existing
 *   user keeps their sessions, settings and remembered key;
 * - TABCODE_EMBED_STORAGE_NAMESPACE, the embed's (embed.html and the `tabcode` package): default
 *   `<the page's namespace>-embed`. It must differ from the page's.
 * A realm uses the page's namespace until an embed entry point calls enterEmbedStorage() (before anything
 * opens storage); a worker that opens storage is told its page's namespace in its start message.
 *
 * A namespace separates names, not permissions: any script of an origin may open any database of that
 * origin. Only a separate origin keeps a key the stand-alone page remembered out of an embed's reach
 * (README, "Serving the embed from its own origin").
 *
 * This module imports nothing (vite.config.ts and every layer use it).
 */

declare const __TABCODE_STORAGE_NAMESPACE__: string | undefined;
declare const __TABCODE_EMBED_STORAGE_NAMESPACE__: string | undefined;

/** The stand-alone page's namespace when the build sets none: the names tabcode has always used. */
export const DEFAULT_STORAGE_NAMESPACE = 'tabcode';
/** The embed's namespace when the build sets none: the page's with this suffix. */
export const EMBED_NAMESPACE_SUFFIX = '-embed';
/** Longest namespace accepted (database names stay short and readable in devtools). */
export const MAX_STORAGE_NAMESPACE_LENGTH = 40;

/**
 * A namespace: lower-case letters, digits and single hyphens, starting with a letter, not ending with a
 * hyphen. No `.` or `:`: they separate the namespace from a key's own parts (`tabcode.sandbox`).
 */
const NAMESPACE_PATTERN = /^[a-z](?:-?[a-z0-9])*$/;

/**
 * `value` when it is a valid namespace, else throws an Error that names `source` (the variable it came
 * from), what was wrong and an example, so a build with a bad value stops with a message to act on.
 */
export function checkStorageNamespace(value: string, source: string): string {
  if (value.length > MAX_STORAGE_NAMESPACE_LENGTH || !NAMESPACE_PATTERN.test(value)) {
    throw new Error(
      `${source}=${JSON.stringify(value)} is not a valid storage namespace: use 1 to ` +
        `${MAX_STORAGE_NAMESPACE_LENGTH} lower-case letters, digits and single hyphens, starting with a ` +
        `letter and not ending with a hyphen (for example "docs-playground").`,
    );
  }
  return value;
}

/**
 * The build's two namespaces from its environment (unset or empty: the defaults), checked. Throws (see
 * checkStorageNamespace) for a bad value, or when the embed's would be the page's: the embed would then
 * open the stand-alone page's databases.
 */
export function resolveStorageNamespaces(env: Record<string, string | undefined>): {
  app: string;
  embed: string;
} {
  const app = env.TABCODE_STORAGE_NAMESPACE
    ? checkStorageNamespace(env.TABCODE_STORAGE_NAMESPACE, 'TABCODE_STORAGE_NAMESPACE')
    : DEFAULT_STORAGE_NAMESPACE;
  const embed = env.TABCODE_EMBED_STORAGE_NAMESPACE
    ? checkStorageNamespace(env.TABCODE_EMBED_STORAGE_NAMESPACE, 'TABCODE_EMBED_STORAGE_NAMESPACE')
    : `${app}${EMBED_NAMESPACE_SUFFIX}`;
  checkStorageNamespace(embed, 'the embed storage namespace (TABCODE_STORAGE_NAMESPACE + "-embed")');
  if (embed === app) {
    throw new Error(
      `TABCODE_EMBED_STORAGE_NAMESPACE=${JSON.stringify(embed)} is the stand-alone page's namespace too: ` +
        'the embed would open its databases (sessions, settings, a remembered key). Choose another one, ' +
        'or leave it unset for the default.',
    );
  }
  return { app, embed };
}

/** Vite `define` entries for the namespaces of a build (see resolveStorageNamespaces; throws the same). */
export function storageNamespaceDefines(env: Record<string, string | undefined>): Record<string, string> {
  const { app, embed } = resolveStorageNamespaces(env);
  return {
    __TABCODE_STORAGE_NAMESPACE__: JSON.stringify(app),
    __TABCODE_EMBED_STORAGE_NAMESPACE__: JSON.stringify(embed),
  };
}

/** The stand-alone page's namespace compiled into this bundle (the default where nothing defines it). */
export const APP_STORAGE_NAMESPACE: string =
  typeof __TABCODE_STORAGE_NAMESPACE__ === 'string'
    ? __TABCODE_STORAGE_NAMESPACE__
    : DEFAULT_STORAGE_NAMESPACE;

/** The embed's namespace compiled into this bundle. */
export const EMBED_STORAGE_NAMESPACE: string =
  typeof __TABCODE_EMBED_STORAGE_NAMESPACE__ === 'string'
    ? __TABCODE_EMBED_STORAGE_NAMESPACE__
    : `${APP_STORAGE_NAMESPACE}${EMBED_NAMESPACE_SUFFIX}`;

let current = APP_STORAGE_NAMESPACE;
/** Set once a name was handed out: from then on the realm's namespace may not change. */
let used = false;

/** This realm's namespace. */
export function storageNamespace(): string {
  return current;
}

/**
 * Makes `namespace` this realm's. Throws for an invalid one, or for a change after a name was handed
 * out (storage would then be split across two namespaces: a bug of the caller's order, caught at once).
 * Setting the namespace already in use is a no-op.
 */
export function setStorageNamespace(namespace: string): void {
  if (namespace === current) return;
  checkStorageNamespace(namespace, 'storage namespace');
  if (used) {
    throw new Error(
      `tabcode: storage namespace cannot change to "${namespace}": storage of "${current}" is already open in this page.`,
    );
  }
  current = namespace;
}

/** Switches this realm to the embed's namespace (embed entry points call it before opening anything). */
export function enterEmbedStorage(): void {
  setStorageNamespace(EMBED_STORAGE_NAMESPACE);
}

/**
 * Whether this realm is an embed's: it keeps nothing in the host page's web storage (sessionStorage,
 * localStorage), only in its own namespaced IndexedDB stores where it keeps anything.
 */
export function inEmbedStorage(): boolean {
  return current === EMBED_STORAGE_NAMESPACE;
}

/**
 * The name of a piece of storage of this realm: `<namespace><separator><purpose>`, e.g. IndexedDB
 * database `tabcode-sessions`, localStorage key `tabcode.sandbox`, lock `tabcode-session:<id>`.
 */
export function storageName(purpose: string, separator: '-' | '.' = '-'): string {
  used = true;
  return `${current}${separator}${purpose}`;
}
