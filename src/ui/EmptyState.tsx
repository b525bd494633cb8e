/**
 * What a new session shows, teaching the page without the README: what tabcode is, how to connect
 * (a key in Settings, the dev proxy, or the mock API), the demo project, example prompts and keys.
 */

export const EXAMPLE_PROMPTS: readonly string[] = [
  'Explain how this project is laid out and what each file does.',
  'Add a median function to src/stats.js and show the median in the report.',
  'Count the readings per city in data/cities.csv with a shell pipeline.',
];

interface EmptyStateProps {
  onPick: (prompt: string) => void;
  /** True when a key is set (or the dev proxy adds one). */
  connected: boolean;
  onOpenSettings: () => void;
  onOpenFile: (path: string) => void;
}

/** Every file of the demo project (src/sandbox/demo-project.ts), with what it holds. */
export const DEMO_FILES: readonly [string, string][] = [
  ['README.md', 'what the project is'],
  ['package.json', 'its scripts: start and test'],
  ['src/index.js', 'entry point: prints the report'],
  ['src/report.js', 'formats the report per city'],
  ['src/stats.js', 'mean, min and max'],
  ['data/cities.csv', 'temperature readings'],
  ['test/stats.test.js', 'tests of stats.js (node --test)'],
];

export function EmptyState({ onPick, connected, onOpenSettings, onOpenFile }: EmptyStateProps) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <h2 className="empty-title">A coding agent in your browser tab</h2>
      <p className="empty-lead">
        tabcode runs an agent loop in this page. The model reads, writes and edits files and runs shell
        commands in a sandbox that lives in the tab: nothing to install, and nothing leaves your machine
        except the requests to the model.
      </p>

      <ol className="steps">
        <li className={`step ${connected ? 'step-done' : ''}`} data-testid="step-key">
          <span className="step-num" aria-hidden="true">
            {connected ? '✓' : '1'}
          </span>
          <div>
            {connected ? (
              <strong>Connected: a key is set.</strong>
            ) : (
              <>
                <strong>Add your Anthropic API key.</strong>{' '}
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  onClick={onOpenSettings}
                  data-testid="empty-add-key"
                >
                  Add API key
                </button>
              </>
            )}
            <div className="muted step-help">
              The key stays in this tab unless you tick "Remember". No key? Run <code>npm run dev</code> with{' '}
              <code>ANTHROPIC_API_KEY</code> set (its proxy adds the key), or <code>npm run mock-api</code>{' '}
              and use its URL as the base URL to try a scripted model.
            </div>
          </div>
        </li>
        <li className="step">
          <span className="step-num" aria-hidden="true">
            2
          </span>
          <div>
            <strong>Meet the demo project, weather-notes</strong>: a small JavaScript project that prints
            temperature statistics per city. Its files are in the panel on the right:
            <ul className="demo-files">
              {DEMO_FILES.map(([path, what]) => (
                <li key={path}>
                  <button type="button" className="link-btn mono" onClick={() => onOpenFile(path)}>
                    {path}
                  </button>{' '}
                  <span className="muted">— {what}</span>
                </li>
              ))}
            </ul>
          </div>
        </li>
        <li className="step">
          <span className="step-num" aria-hidden="true">
            3
          </span>
          <div>
            <strong>Ask for something.</strong> Pick an example to put it in the prompt box, then press Enter.
            <div className="examples">
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
        </li>
      </ol>

      <div className="keys muted">
        <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> newline · <kbd>Esc</kbd> stop the agent ·{' '}
        <kbd>↑</kbd> last prompt · <kbd>Shift</kbd>+<kbd>Tab</kbd> permission mode · <kbd>Ctrl</kbd>+
        <kbd>B</kbd> sessions · <kbd>Ctrl</kbd>+<kbd>J</kbd> side panel · <kbd>Ctrl</kbd>+<kbd>,</kbd>{' '}
        settings
      </div>
      <p className="muted empty-foot">
        Every message is saved in this browser as it happens: reload any time, and switch, export or import
        sessions from the list on the left.
      </p>
    </div>
  );
}
