/**
 * The page: header, chat column (transcript + prompt box) and the files panel. It reaches the agent
 * only through AgentSession and files only through the session's Sandbox.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { createAgentSession, defaultSettings, usesDevProxy } from '../agent/session.ts';
import type { AgentSession, AgentSettings, SessionEvent } from '../agent/types.ts';
import { EmptyState } from './EmptyState.tsx';
import { FilesPanel } from './FilesPanel.tsx';
import { Header } from './Header.tsx';
import { PromptBox } from './PromptBox.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';
import { Transcript } from './Transcript.tsx';
import { initialTranscript, reduceTranscript } from './transcript-state.ts';

export type CreateSession = (options: { settings: AgentSettings }) => Promise<AgentSession>;

export interface AppProps {
  /** How the page gets its session (default: the just-bash sandbox with the demo project). */
  createSession?: CreateSession;
  initialSettings?: AgentSettings;
}

export function App({ createSession = createAgentSession, initialSettings }: AppProps) {
  const [settings, setSettings] = useState<AgentSettings>(() => initialSettings ?? defaultSettings());
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const [session, setSession] = useState<AgentSession | null>(null);
  const [bootError, setBootError] = useState<string | null>(null);
  const [transcript, dispatch] = useReducer(reduceTranscript, initialTranscript);
  const [sending, setSending] = useState(false);
  const [prompt, setPrompt] = useState('');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [filesRefresh, setFilesRefresh] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    let cancelled = false;
    let created: AgentSession | undefined;
    createSession({ settings: settingsRef.current }).then(
      (s) => {
        if (cancelled) {
          void s.dispose();
          return;
        }
        created = s;
        setSession(s);
      },
      (err: unknown) => {
        if (!cancelled) setBootError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      cancelled = true;
      if (created) void created.dispose();
    };
  }, [createSession]);

  useEffect(() => {
    if (!session) return;
    return session.subscribe((event: SessionEvent) => {
      dispatch(event);
      if (event.type === 'tool-result' || event.type === 'run-end') setFilesRefresh((n) => n + 1);
    });
  }, [session]);

  const running = transcript.running || sending;

  const interrupt = useCallback(() => {
    if (session?.isRunning()) session.interrupt();
  }, [session]);

  // Esc anywhere stops the running turn (the settings dialog handles its own Esc).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || settingsOpen || !session?.isRunning()) return;
      e.preventDefault();
      session.interrupt();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session, settingsOpen]);

  const send = () => {
    const text = prompt.trim();
    if (!session || !text || running) return;
    const current = session.settings();
    if (!current.apiKey && !usesDevProxy(current)) {
      dispatch({ type: 'local-notice', notice: 'missing-key' });
      return;
    }
    setPrompt('');
    setSending(true);
    session.send(text).finally(() => setSending(false));
  };

  const saveSettings = (patch: Partial<AgentSettings>) => {
    session?.updateSettings(patch);
    setSettings((s) => ({ ...s, ...patch }));
    setSettingsOpen(false);
    inputRef.current?.focus();
  };

  const pickExample = (text: string) => {
    setPrompt(text);
    inputRef.current?.focus();
  };

  const empty = transcript.items.length === 0;

  return (
    <div className="app">
      <Header
        sandbox={session ? session.sandbox.info() : null}
        model={settings.model}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      <div className="app-body">
        <main className="chat">
          {bootError && (
            <div
              className="banner banner-error boot-error"
              role="alert"
              data-testid="error-banner"
              data-error-kind="boot"
            >
              <div className="banner-text">
                <div>The sandbox could not start.</div>
                <div className="banner-detail">{bootError}</div>
              </div>
            </div>
          )}
          {empty ? (
            <div className="transcript">
              <div className="transcript-inner">
                <EmptyState onPick={pickExample} />
              </div>
            </div>
          ) : (
            <Transcript
              items={transcript.items}
              running={running}
              onOpenSettings={() => setSettingsOpen(true)}
            />
          )}
          <div className="composer">
            <PromptBox
              value={prompt}
              onChange={setPrompt}
              onSend={send}
              onStop={interrupt}
              running={running}
              ready={session !== null}
              inputRef={inputRef}
            />
          </div>
        </main>
        <FilesPanel sandbox={session?.sandbox ?? null} refreshKey={filesRefresh} />
      </div>
      <SettingsDialog
        open={settingsOpen}
        settings={settings}
        onSave={saveSettings}
        onClose={() => setSettingsOpen(false)}
      />
    </div>
  );
}
