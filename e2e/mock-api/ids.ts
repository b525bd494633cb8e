/** Random identifiers shaped like the real API's (`msg_`, `toolu_`, `req_` + 24 alphanumerics). */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `prefix` followed by `length` random alphanumerics. */
export function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** `msg_…` */
export const messageId = (): string => randomId('msg_');
/** `toolu_…` */
export const toolUseId = (): string => randomId('toolu_');
/** `req_…` */
export const requestId = (): string => randomId('req_');
