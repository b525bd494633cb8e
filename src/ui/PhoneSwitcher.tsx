/**
 * At phone width the page shows one column at a time: this bar switches between the chat, the files, the
 * terminal, the sessions list and the other side panels. Each button is a 44 px touch target.
 */
export type PhonePane = 'chat' | 'files' | 'terminal' | 'sessions' | 'more';

const PANES: ReadonlyArray<[PhonePane, string]> = [
  ['chat', 'Chat'],
  ['files', 'Files'],
  ['terminal', 'Terminal'],
  ['sessions', 'Sessions'],
  ['more', 'More'],
];

export function PhoneSwitcher({
  pane,
  onSelect,
  running,
}: {
  pane: PhonePane;
  onSelect: (pane: PhonePane) => void;
  /** The agent works: the chat button says so while another pane shows. */
  running: boolean;
}) {
  return (
    <nav className="phone-switcher" aria-label="Show" data-testid="phone-switcher">
      {PANES.map(([id, label]) => (
        <button
          key={id}
          type="button"
          className={`phone-tab ${pane === id ? 'active' : ''}`}
          aria-pressed={pane === id}
          data-testid={`phone-${id}`}
          onClick={() => onSelect(id)}
        >
          {label}
          {id === 'chat' && running && pane !== 'chat' && (
            <>
              <span className="phone-busy" aria-hidden="true" />
              <span className="visually-hidden"> (working)</span>
            </>
          )}
        </button>
      ))}
    </nav>
  );
}
