/**
 * Names folded for comparison, so a look-alike never passes for the real thing: compatibility forms
 * (full-width letters), invisible format characters, case, and Cyrillic or Greek letters that look Latin.
 */

/** Zero-width and other invisible format characters people use to disguise names. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** A name folded for comparison: compatibility forms (full-width...), invisible characters, case. */
export function foldName(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
}

/** Cyrillic and Greek letters that look like Latin ones, and the Latin letters they imitate. */
const LOOKALIKE_FROM = 'авеѕіјкмнорстухһԁɡαειқκνορτυχ';
const LOOKALIKE_TO = 'abesijkmhopctyxhdgaeikkvoptux';

/** `foldName`, then look-alike letters replaced by the Latin ones (`rм` → `rm`). */
export function foldLookalikes(text: string): string {
  // Plain lower-case ASCII folds to itself: the common case, kept cheap.
  if (/^[\x20-\x40\x5b-\x7e]*$/.test(text)) return text;
  return foldName(text).replace(/[\u0080-\uffff]/g, (c) => {
    const k = LOOKALIKE_FROM.indexOf(c);
    return k >= 0 ? LOOKALIKE_TO[k] : c;
  });
}

/** True when the text has characters outside printable ASCII (a look-alike or invisible one may hide). */
export function hasNonAscii(text: string): boolean {
  return /[^\x20-\x7e\t\n]/.test(text);
}
