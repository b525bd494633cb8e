/**
 * Output written to the terminal must never turn into input. xterm answers some sequences it reads
 * (device attributes `ESC[c`, `ESC[>c`, status and cursor reports `ESC[5n`/`ESC[6n`, mode reports
 * `ESC[?..$p`, `DCS $ q` settings, `XTVERSION`, colour queries `OSC 4/10/11/12 ; ?`) by emitting the reply
 * as if it were typed: through `onData`, straight into the line editor (or the shell's stdin). No
 * program in the just-bash sandbox reads such replies, so file contents or command output that carries a
 * query could type for the user. These handlers take the queries before xterm's own and answer nothing;
 * every other sequence (colours set, cursor moves, modes) goes on to xterm as before.
 */
import type { IDisposable, Terminal } from '@xterm/xterm';

/** CSI queries xterm would answer: prefix, intermediates and final byte. */
const CSI_QUERIES: { prefix?: string; intermediates?: string; final: string }[] = [
  { final: 'c' }, // DA1
  { prefix: '>', final: 'c' }, // DA2
  { prefix: '=', final: 'c' }, // DA3
  { final: 'n' }, // DSR: status, cursor position
  { prefix: '?', final: 'n' }, // DECDSR
  { intermediates: '$', final: 'p' }, // DECRQM (ANSI)
  { prefix: '?', intermediates: '$', final: 'p' }, // DECRQM (DEC)
  { prefix: '>', final: 'q' }, // XTVERSION
  { final: 't' }, // window reports
];

/** OSC colour numbers whose `?` form asks for a reply. */
const OSC_COLOUR_QUERIES = [4, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19];

/** True when an OSC colour payload asks for a colour (a `?` where a colour spec would be). */
export function isColourQuery(data: string): boolean {
  return data.split(';').some((part) => part.trim() === '?');
}

/**
 * Makes `term` drop every query reply (see above). Returns what removes the handlers. Never throws.
 */
export function dropTerminalQueries(term: Terminal): IDisposable {
  const handlers: IDisposable[] = [
    ...CSI_QUERIES.map((id) => term.parser.registerCsiHandler(id, () => true)),
    ...OSC_COLOUR_QUERIES.map((n) => term.parser.registerOscHandler(n, isColourQuery)),
    term.parser.registerDcsHandler({ intermediates: '$', final: 'q' }, () => true), // DECRQSS
    term.parser.registerDcsHandler({ intermediates: '+', final: 'q' }, () => true), // XTGETTCAP
  ];
  return {
    dispose: () => {
      for (const h of handlers) h.dispose();
    },
  };
}
