/**
 * What BashOutput and KillShell say of a background command ID the sandbox does not have: background
 * commands live in the page, so a reload since the command started stopped it (the model, reading its
 * transcript, cannot tell that from an ID it mistyped). It says what the note the page adds after a
 * reload says (src/ui/session-repair.ts): stopped, with what it printed up to then.
 */
export function unknownBackgroundId(id: string, known: readonly string[]): string {
  return [
    `No background command with ID ${id}.`,
    known.length ? `Known IDs: ${known.join(', ')}.` : 'No background command is running.',
    'Background commands run in the page and stop when it is reloaded: if this one was started before a reload, the reload stopped it (it prints nothing more; what it had printed by then came with the note about the reload, when its card had shown it); start it again if it is still needed.',
  ].join(' ');
}
