/**
 * embed.html's script. In an iframe it waits for the host's `tabcode:config` (host-bridge.ts). Opened on
 * its own, or with `?mode=direct`, it listens to no one: a script of the same page calls
 * `window.tabcode.mount(element, config)` (the same API a bundling host imports from mount.ts).
 */
// First: the embed's storage namespace, before any module below can open storage.
import './storage-scope.ts';
import { connectToHost } from './host-bridge.ts';
import { mount } from './mount.ts';

declare global {
  interface Window {
    /** The embed API of embed.html. */
    tabcode?: { mount: typeof mount };
  }
}

// embed.html is a page of its own: the theme may go on its document element (as in the iframe).
window.tabcode = {
  mount: (element, config, options) => mount(element, config, { documentTheme: true, ...options }),
};
const root = document.getElementById('root');
if (!root) throw new Error('embed.html has no #root element');
const direct = new URLSearchParams(location.search).get('mode') === 'direct';
if (window.parent !== window && !direct) connectToHost(root);
