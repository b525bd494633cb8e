/**
 * Messages written for the model mark commands and paths as `code` (src/core/permissions/messages.ts).
 * Shown to a user as plain text the backticks are noise: this splits such a message into text and code
 * pieces, so a view can show each command in a <code> element, exactly as it was written.
 */

/** One piece of a message: plain text, or the text of a `code` span (its backticks removed). */
export interface MessagePiece {
  code: boolean;
  text: string;
}

/** A span as the permission messages write it: one backtick, the code (no backtick), one backtick. */
const CODE_SPAN = /`([^`\n]+)`/g;

/**
 * Splits `message` at its `code` spans; a backtick without a closing one stays in the text. Never
 * throws; an empty message gives no pieces.
 */
export function splitInlineCode(message: string): MessagePiece[] {
  const pieces: MessagePiece[] = [];
  let at = 0;
  for (const m of message.matchAll(CODE_SPAN)) {
    if (m.index > at) pieces.push({ code: false, text: message.slice(at, m.index) });
    pieces.push({ code: true, text: m[1] });
    at = m.index + m[0].length;
  }
  if (at < message.length) pieces.push({ code: false, text: message.slice(at) });
  return pieces;
}
