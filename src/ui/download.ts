/** Saves data as a file through the browser's download (an object URL on a temporary link). */

/** How long the object URL lives after the click (the download has started by then). */
const REVOKE_AFTER_MS = 10_000;

/** Starts a download of `data` named `name`. Never throws. */
export function downloadBlob(name: string, data: Blob): void {
  try {
    const url = URL.createObjectURL(data);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  } catch (err) {
    console.error('tabcode: the download could not start', err);
  }
}

/** A text file download. */
export function downloadText(name: string, text: string, type = 'text/plain'): void {
  downloadBlob(name, new Blob([text], { type }));
}
