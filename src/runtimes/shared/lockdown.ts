/**
 * Takes away from a runtime worker everything that reaches past it: the network (fetch, XHR, sockets,
 * event streams, importScripts, nested workers), the origin's storage (IndexedDB, Cache Storage, the
 * storage manager and its private file system, cookies) and channels to the page (BroadcastChannel).
 * Called once the engine's own files are loaded, before any program runs. Properties are removed from
 * the global object and every prototype on its chain, so they cannot be recovered from a prototype.
 *
 * The engines (QuickJS, Pyodide's Python) do not expose the worker's globals to programs in the first
 * place; this is the second wall, for an engine escape or a bridge we did not close.
 */

export const LOCKED_GLOBALS = [
  'fetch',
  'XMLHttpRequest',
  'XMLHttpRequestUpload',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'importScripts',
  'Worker',
  'SharedWorker',
  'ServiceWorker',
  'BroadcastChannel',
  'indexedDB',
  'IDBFactory',
  'caches',
  'CacheStorage',
  'cookieStore',
  'CookieStore',
  'RTCPeerConnection',
  'RTCDataChannel',
  'webkitRTCPeerConnection',
  'StorageManager',
  'FileSystemHandle',
  'FileSystemDirectoryHandle',
  'FileSystemFileHandle',
  'FileSystemSyncAccessHandle',
  'PushManager',
  'BackgroundFetchManager',
  'sendBeacon',
] as const;

/** Removes LOCKED_GLOBALS from `scope` and its prototype chain, and `navigator.storage`. Returns what was still reachable afterwards (should be empty). */
export function lockDown(scope: typeof globalThis = globalThis): string[] {
  const chain: object[] = [];
  for (let o: object | null = scope; o; o = Object.getPrototypeOf(o)) chain.push(o);
  for (const name of LOCKED_GLOBALS) {
    for (const o of chain) {
      try {
        delete (o as Record<string, unknown>)[name];
      } catch {
        // Non-configurable: shadowed below.
      }
    }
    if (name in scope) {
      try {
        Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false });
      } catch {
        // Left as is; reported below.
      }
    }
  }
  const nav = (scope as { navigator?: object }).navigator;
  if (nav) {
    for (let o: object | null = nav; o; o = Object.getPrototypeOf(o)) {
      for (const name of ['storage', 'serviceWorker', 'locks', 'sendBeacon']) {
        try {
          delete (o as Record<string, unknown>)[name];
        } catch {
          // ignore
        }
      }
    }
  }
  return LOCKED_GLOBALS.filter((name) => (scope as Record<string, unknown>)[name] !== undefined);
}
