/**
 * Imported first by every embed entry point (embed.html's script, mount(), the `tabcode` package):
 * switches the page to the embed's storage namespace (core/storage-namespace.ts) before any module
 * opens storage, so an embed never opens the stand-alone page's databases, even on the same origin.
 * The stand-alone page never imports this module.
 */
import { enterEmbedStorage } from '../core/storage-namespace.ts';

enterEmbedStorage();
