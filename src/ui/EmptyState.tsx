/**
 * What a new session shows, teaching the page without the README: what tabcode is, how to connect
 * (a key in Settings, the dev proxy, or the mock API), the demo project, example prompts and keys.
 * Inside an embedded playground (src/embed provides EmbedEmptyContext) it describes that playground
 * instead: its own files, and whether it plays a recording, goes through the host's proxy, has a key
 * or needs one; never the stand-alone page's project or its developer commands.
 */
import { createContext, useContext } from 'react';

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

/** What an embedded playground tells its empty state (src/embed/embed-shell.tsx provides it). */
export interface EmbedEmptyInfo {
  /**
   * The project's files as the playground starts (paths), `'demo'` when the config gives none (the
   * sandbox then holds the demo project), undefined while a replay file that carries them loads.
   */
  files: readonly string[] | 'demo' | undefined;
  /** The playground plays a recorded session (a replay, or the older scripted demo): no key, no network. */
  replay: boolean;
  /** The recording starts on its own (config `autorun`). */
  autorun: boolean;
  /** The base URL the host set: its proxy adds the key. */
  proxy?: string;
  /** The side panel is there (its Files tab can open a file). */
  filesPanel: boolean;
  /** The prompt box is there. */
  promptBox: boolean;
}

/** Set by an embedding host (src/embed); the stand-alone page provides none. */
export const EmbedEmptyContext = createContext<EmbedEmptyInfo | null>(null);

/** The example an embedded playground offers: it fits any project. */
export const EMBED_EXAMPLE_PROMPT = 'Explain how this project is laid out and what each file does.';

/** Files listed by name in an embedded playground's empty state; the rest are counted. */
export const EMBED_FILES_LISTED = 12;

/** An embedded playground's state, as its empty state names it. */
export type EmbedEmptyMode = 'replay' | 'proxy' | 'key' | 'no-key';

/** Which state an embedded playground is in (a recording wins: it needs neither key nor proxy). */
export function embedEmptyMode(info: EmbedEmptyInfo, connected: boolean): EmbedEmptyMode {
  if (info.replay) return 'replay';
  if (info.proxy) return 'proxy';
  return connected ? 'key' : 'no-key';
}

/** The origin of a base URL (what the reader can recognise), or the text as given when it is not a URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function EmptyState(props: EmptyStateProps) {
  const embed = useContext(EmbedEmptyContext);
  return embed ? <EmbedEmptyState {...props} info={embed} /> : <StandaloneEmptyState {...props} />;
}

function StandaloneEmptyState({ onPick, connected, onOpenSettings, onOpenFile }: EmptyStateProps) {
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
            temperature statistics per city. Its files are in the Files panel:
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
            <ExamplePrompts prompts={EXAMPLE_PROMPTS} onPick={onPick} />
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

/** The empty state of an embedded playground: its own project and its real state, no developer commands. */
function EmbedEmptyState({
  onPick,
  connected,
  onOpenSettings,
  onOpenFile,
  info,
}: EmptyStateProps & { info: EmbedEmptyInfo }) {
  const mode = embedEmptyMode(info, connected);
  const live = mode !== 'replay';
  const files = info.files;
  const listed: readonly (readonly [string, string])[] =
    files === 'demo' ? DEMO_FILES : (files ?? []).slice(0, EMBED_FILES_LISTED).map((p) => [p, ''] as const);
  const more = Array.isArray(files) ? files.length - listed.length : 0;
  return (
    <div className="empty-state" data-testid="empty-state" data-mode={mode}>
      <h2 className="empty-title">A coding agent in this page</h2>
      <p className="empty-lead">
        The agent reads, writes and edits this playground's files and runs shell commands in a sandbox that
        lives in the page: nothing to install.
      </p>

      <ol className="steps">
        <li className={`step ${mode === 'no-key' ? '' : 'step-done'}`} data-testid="step-key">
          <span className="step-num" aria-hidden="true">
            {mode === 'no-key' ? '1' : '✓'}
          </span>
          <div>
            {mode === 'replay' && (
              <>
                <strong>A recorded session: no key, no network.</strong>
                <div className="muted step-help">
                  {info.autorun ? 'It plays on its own.' : 'Press ▶ Play to watch it.'} The agent's tools
                  really run here, and each result is checked against the recording.
                </div>
              </>
            )}
            {mode === 'proxy' && (
              <>
                <strong>Live, through {originOf(info.proxy ?? '')}.</strong>
                <div className="muted step-help">This page's server sends the requests to the model.</div>
              </>
            )}
            {mode === 'key' && (
              <>
                <strong>Live: a key is set.</strong>
                <div className="muted step-help">
                  It is kept in this page's memory only: reloading the page forgets it.
                </div>
              </>
            )}
            {mode === 'no-key' && (
              <>
                <strong>Add an Anthropic API key to run it live.</strong>{' '}
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  onClick={onOpenSettings}
                  data-testid="empty-add-key"
                >
                  Add API key
                </button>
                <div className="muted step-help">
                  It is kept in this page's memory only: reloading the page forgets it.
                </div>
              </>
            )}
          </div>
        </li>
        <li className="step">
          <span className="step-num" aria-hidden="true">
            2
          </span>
          <div>
            {files === undefined ? (
              <strong>The project is loading…</strong>
            ) : files === 'demo' ? (
              <>
                <strong>The project is the demo, weather-notes</strong>: a small JavaScript project that
                prints temperature statistics per city.
              </>
            ) : files.length === 0 ? (
              <strong>The project starts empty.</strong>
            ) : (
              <>
                <strong>
                  The project: {files.length} file{files.length === 1 ? '' : 's'}
                </strong>
                {info.filesPanel ? ', also in the Files panel:' : ':'}
              </>
            )}
            {listed.length > 0 && (
              <ul className="demo-files">
                {listed.map(([path, what]) => (
                  <li key={path} data-testid="empty-file">
                    {info.filesPanel ? (
                      <button type="button" className="link-btn mono" onClick={() => onOpenFile(path)}>
                        {path}
                      </button>
                    ) : (
                      <span className="mono">{path}</span>
                    )}
                    {what && <span className="muted"> — {what}</span>}
                  </li>
                ))}
                {more > 0 && <li className="muted">and {more} more</li>}
              </ul>
            )}
          </div>
        </li>
        {live && info.promptBox && (
          <li className="step">
            <span className="step-num" aria-hidden="true">
              3
            </span>
            <div>
              <strong>Ask for something</strong> in the box below, then press Enter. For example:
              <ExamplePrompts prompts={[EMBED_EXAMPLE_PROMPT]} onPick={onPick} />
            </div>
          </li>
        )}
      </ol>

      {info.promptBox && (
        <div className="keys muted">
          <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> newline · <kbd>Esc</kbd> stop the agent ·{' '}
          <kbd>↑</kbd> last prompt · <kbd>Shift</kbd>+<kbd>Tab</kbd> permission mode
        </div>
      )}
      <p className="muted empty-foot">
        Nothing here is saved: reloading the page starts the playground over.
      </p>
    </div>
  );
}

/** Example prompts as buttons: a click puts the prompt in the prompt box. */
function ExamplePrompts({
  prompts,
  onPick,
}: {
  prompts: readonly string[];
  onPick: (prompt: string) => void;
}) {
  return (
    <div className="examples">
      {prompts.map((prompt) => (
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
  );
}
