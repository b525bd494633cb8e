/** What a new session shows: what tabcode is, the demo project, and prompts to start from. */

export const EXAMPLE_PROMPTS: readonly string[] = [
  'Explain how this project is laid out and what each file does.',
  'Add a median function to src/stats.js and show the median in the report.',
  'Count the readings per city in data/cities.csv with a shell pipeline.',
];

export function EmptyState({ onPick }: { onPick: (prompt: string) => void }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <h1 className="empty-title">A coding agent in your browser tab</h1>
      <p className="empty-lead">
        tabcode runs an agent loop in this page. The model reads, writes and edits files and runs shell
        commands in a sandbox that lives in the tab: nothing to install, nothing leaves your machine except
        the requests to the model.
      </p>
      <p className="empty-project">
        The sandbox starts with <strong>weather-notes</strong>, a small JavaScript project that prints
        temperature statistics per city from <code>data/cities.csv</code>. Browse its files on the right.
      </p>
      <div className="examples">
        <div className="examples-label muted">Try</div>
        {EXAMPLE_PROMPTS.map((prompt) => (
          <button
            key={prompt}
            type="button"
            className="example"
            data-testid="example-prompt"
            onClick={() => onPick(prompt)}
          >
            {prompt}
          </button>
        ))}
      </div>
    </div>
  );
}
