/**
 * The workbench page: sessions list | chat (transcript + prompt box) | side panel (files, terminal,
 * preview, todos, usage), with resizable dividers, a header (save status, usage meter, settings) and
 * an offline banner. It reaches the agent only through AgentSession (via useWorkbench) and files only
 * through the session's Sandbox.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentSession, AgentSettings, ModelSummary } from '../agent/types.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import { usesDevProxy } from './agent-module.ts';
import { useAgentRan } from './agent-ran.ts';
import { downloadText } from './download.ts';
import { EmptyState } from './EmptyState.tsx';
import { Header } from './Header.tsx';
import { LiveAnnouncer } from './LiveAnnouncer.tsx';
import { McpRequests } from './McpRequests.tsx';
import { type PhonePane, PhoneSwitcher } from './PhoneSwitcher.tsx';
import { PromptBox } from './PromptBox.tsx';
import { SessionsPanel } from './SessionsPanel.tsx';
import { SettingsDialog, type SettingsSave } from './SettingsDialog.tsx';
import { SidePanel } from './SidePanel.tsx';
import { Splitter } from './Splitter.tsx';
import { SandboxContext } from './sandbox-context.ts';
import { DEFAULT_PREFS, type SideTab } from './settings-store.ts';
import { sideTabs } from './side-tabs.tsx';
import { TodoStrip } from './TodoStrip.tsx';
import { Transcript } from './Transcript.tsx';
import { latestTodos } from './todos.ts';
import type { TranscriptItem } from './transcript-state.ts';
import { useAppTodos } from './use-app-state.ts';
import { useHabits } from './use-habits.tsx';
import { useMediaQuery } from './use-media-query.ts';
import { useOnline } from './use-online.ts';
import { usePreviewUrl } from './use-preview.ts';
import { useToolPromptSlot } from './use-tool-prompts.tsx';
import { initialPromptText, UNSENT_SEPARATOR, useUnsentPrompts } from './use-unsent-prompts.ts';
import { type CreateSession, useWorkbench, type WorkbenchDeps } from './use-workbench.ts';

export type { CreateSession } from './use-workbench.ts';

export interface AppProps {
  /** How the page gets its session (default: the just-bash sandbox with the demo project). */
  createSession?: CreateSession;
  initialSettings?: AgentSettings;
  /** Storage overrides (tests, embedding). */
  stores?: Pick<WorkbenchDeps, 'sessionsStore' | 'settingsStore'>;
  /** Requests need no key in the page (embed: the scripted demo, or a host proxy adds it). */
  keyless?: boolean;
  /** Called once the agent is up and its session is open (the embed API waits for it). */
  onAgent?: (agent: AgentSession) => void;
  /** Set by a host page embedding the workbench (src/embed); the stand-alone page sets none. */
  embed?: AppEmbedOptions;
}

/** How an embedding host page shapes the workbench. */
export interface AppEmbedOptions {
  /** The element that carries `data-theme` (default: the document's root element). */
  themeRoot?: HTMLElement;
  /** Page-wide keys (Esc, Ctrl+B/J/,) are taken only inside this element (two playgrounds on one page). */
  keyTarget?: HTMLElement;
  /** Side tabs left out. */
  hiddenTabs?: readonly SideTab[];
  /** A project file opened first in the Files panel. */
  openFile?: string;
  /** Put in the prompt box at start. */
  prompt?: string;
  /** Leave out the sandbox and project controls (they read and write the page's sandbox setting). */
  hideProjectControls?: boolean;
  /** The base URL the host page's config set: Settings asks before a key typed there is sent to it. */
  hostBaseURL?: string;
}

const EMPTY_ITEMS: TranscriptItem[] = [];
/** xterm is heavy: the terminal's code loads when its tab first opens. */
/** Below this width the page is a phone layout: one column at a time (matches styles/layout.css). */
export const PHONE_QUERY = '(max-width: 760px)';
/** `?virtualize=off` renders long transcripts in full (the benchmark's baseline). */
const VIRTUALIZE =
  typeof location === 'undefined' || new URLSearchParams(location.search).get('virtualize') !== 'off';

export function App({ createSession, initialSettings, stores, keyless, onAgent, embed }: AppProps) {
  const wb = useWorkbench({ createSession, initialSettings, ...stores });
  const { agent, view, prefs, settings } = wb;
  // What was typed but not saved in the session before a reload comes back into the box.
  // An embed keeps nothing across a reload or a new step (its stores are in memory): its prompt is the
  // host's, and unsent texts are the stand-alone page's only (an embed's would reach the host's storage).
  const [prompt, setPrompt] = useState(() => (embed ? (embed.prompt ?? '') : initialPromptText('')));
  const [queue, setQueue] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [filesRefresh, setFilesRefresh] = useState(0);
  const [openFile, setOpenFile] = useState<{ path: string } | null>(
    embed?.openFile ? { path: embed.openFile } : null,
  );
  const inputRef = useRef<HTMLTextAreaElement>(null);
  /** `!` lines and the page's slash commands run here, before anything is sent (see use-habits). */
  const pageCommand = useRef<(text: string) => boolean>(() => false);
  const online = useOnline();
  /** At phone width one column shows at a time, picked with the switcher. */
  const phone = useMediaQuery(PHONE_QUERY);
  const [pane, setPane] = useState<PhonePane>('chat');
  const previewUrl = usePreviewUrl(agent?.sandbox ?? null);
  const items = view?.transcript.items ?? EMPTY_ITEMS;
  const running = Boolean(view?.transcript.running) || sending;
  const shownPrompts = useMemo(() => items.filter((i) => i.kind === 'user').length, [items]);
  const unsent = useUnsentPrompts({
    enabled: !embed,
    prompt,
    setPrompt,
    queue,
    sessionId: view?.id,
    shownPrompts,
    shownRunning: Boolean(view?.transcript.running),
    shownCommitted: view?.save === 'saved' || view?.save === 'pending',
    sending,
  });
  const connected = Boolean(settings.apiKey) || usesDevProxy(settings) || Boolean(keyless);

  // Theme: follow the system unless the user picked one.
  const themeRoot = embed?.themeRoot;
  useEffect(() => {
    const root = themeRoot ?? document.documentElement;
    if (prefs.theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = prefs.theme;
  }, [prefs.theme, themeRoot]);

  useEffect(() => {
    if (!agent) return;
    performance.mark('tabcode:interactive');
    return agent.subscribe((event) => {
      if (event.type === 'tool-result' || event.type === 'run-end') setFilesRefresh((n) => n + 1);
      // A prompt the API refused before any reply is not in the transcript: back into the box.
      if (event.type === 'prompt-returned')
        setPrompt((p) => [event.prompt, p].filter((s) => s.trim()).join(UNSENT_SEPARATOR));
    });
  }, [agent]);

  useEffect(() => {
    if (agent) onAgent?.(agent);
  }, [agent, onAgent]);

  // Prompts sent while the agent was still starting go out once it is up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the agent arrives
  useEffect(() => {
    if (!agent || running || queue.length === 0) return;
    // Another tab has the session (this one cannot save it): nothing goes out, the queue goes back.
    if (wb.model?.readOnly) {
      setPrompt((p) => [...queue, p].filter((s) => s.trim()).join(UNSENT_SEPARATOR));
      setQueue([]);
      return;
    }
    const [next, ...rest] = queue;
    setQueue(rest);
    sendQueued(next);
  }, [agent]);

  // Another session: what was queued for the one before goes back into the prompt box (never dropped).
  // The first session to open keeps the prompts queued while it started: the effect above sends them.
  const queueOwner = useRef(wb.model);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the open session changes
  useEffect(() => {
    const before = queueOwner.current;
    queueOwner.current = wb.model;
    if (!before || before === wb.model || queue.length === 0) return;
    setPrompt((p) => [...queue, p].filter((s) => s.trim()).join(UNSENT_SEPARATOR));
    setQueue([]);
  }, [wb.model]);

  const sendText = useCallback(
    (text: string) => {
      if (!agent || !wb.model || wb.model.readOnly) return;
      const current = agent.settings();
      if (!keyless && !current.apiKey && !usesDevProxy(current)) {
        wb.model.local({ type: 'local-notice', notice: 'missing-key' });
        return false;
      }
      setSending(true);
      unsent.sent(text);
      // Over once what the turn left is shown (committed): a quick turn can end before any frame wrote it,
      // and what comes next (the queue, the unsent prompt) goes by the shown state.
      const model = wb.model;
      void agent
        .send(text)
        .then(() => model.flush())
        .finally(() => setSending(false));
      return true;
    },
    [agent, wb.model, keyless, unsent.sent],
  );

  /** A queued prompt goes out; one that cannot (no key yet) goes back into the prompt box. */
  const sendQueued = (text: string) => {
    if (pageCommand.current(text)) return;
    if (sendText(text) !== true) setPrompt((p) => [text, p].filter((s) => s.trim()).join(UNSENT_SEPARATOR));
  };

  const send = () => {
    const text = prompt.trim();
    if (!text || running) return;
    if (pageCommand.current(text)) {
      setPrompt('');
      return;
    }
    if (sendText(text)) setPrompt('');
  };

  const enqueue = () => {
    const text = prompt.trim();
    if (!text) return;
    setQueue((q) => [...q, text]);
    setPrompt('');
  };

  // When a turn ends, the next queued prompt goes out. After an interrupt or an error the queue goes back
  // into the prompt box instead, for the user to decide.
  const wasRunning = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on the running → idle edge only
  useEffect(() => {
    if (running) {
      wasRunning.current = true;
      return;
    }
    if (!wasRunning.current) return;
    wasRunning.current = false;
    if (queue.length === 0) return;
    const last = items[items.length - 1];
    const stopped = last?.kind === 'error' || (last?.kind === 'notice' && last.notice === 'interrupted');
    if (stopped) {
      setPrompt((p) => [...queue, p].filter((s) => s.trim()).join(UNSENT_SEPARATOR));
      setQueue([]);
      return;
    }
    const [next, ...rest] = queue;
    setQueue(rest);
    sendQueued(next);
  }, [running]);

  const interrupt = useCallback(() => {
    if (agent?.isRunning()) agent.interrupt();
  }, [agent]);

  // Page-wide keys: Esc stops the agent; Ctrl/⌘+B sessions, +J side panel, +, settings.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (settingsOpen) return;
      if (e.key === 'Escape' && agent?.isRunning()) {
        e.preventDefault();
        agent.interrupt();
        return;
      }
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      if (e.key === 'b') wb.updatePrefs({ sessionsOpen: !prefs.sessionsOpen });
      else if (e.key === 'j') wb.updatePrefs({ sideOpen: !prefs.sideOpen });
      else if (e.key === ',') setSettingsOpen(true);
      else return;
      e.preventDefault();
    };
    const target: EventTarget = embed?.keyTarget ?? window;
    const listener = onKey as EventListener;
    target.addEventListener('keydown', listener);
    return () => target.removeEventListener('keydown', listener);
  }, [agent, settingsOpen, prefs.sessionsOpen, prefs.sideOpen, wb.updatePrefs, embed?.keyTarget]);

  const saveSettings = (save: SettingsSave) => {
    wb.updateSettings(save.settings, save.rememberKey);
    wb.updatePrefs({ theme: save.theme });
    setSettingsOpen(false);
    inputRef.current?.focus();
  };

  const listModels = useCallback(
    (overrides: Partial<AgentSettings>): Promise<ModelSummary[]> =>
      agent ? agent.listModels(overrides) : Promise.reject(new Error('The session is starting.')),
    [agent],
  );

  const setMode = (permissionMode: PermissionMode) => wb.updateSettings({ permissionMode });
  const showTab = (sideTab: SideTab) => {
    wb.updatePrefs({ sideTab, sideOpen: true });
    if (phone) setPane(sideTab === 'files' ? 'files' : sideTab === 'terminal' ? 'terminal' : 'more');
  };
  const selectPane = (next: PhonePane) => {
    setPane(next);
    if (next === 'files' || next === 'terminal') wb.updatePrefs({ sideTab: next });
    else if (next === 'more' && (prefs.sideTab === 'files' || prefs.sideTab === 'terminal'))
      wb.updatePrefs({ sideTab: 'todos' });
  };
  const sidePane = pane === 'files' || pane === 'terminal' || pane === 'more';
  const habits = useHabits({
    wb,
    settings,
    prompt,
    setPrompt,
    inputRef,
    showTab,
    openFile: (path) => {
      showTab('files');
      setOpenFile({ path });
    },
  });
  pageCommand.current = habits.dispatch;
  const history = useMemo(() => items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])), [items]);
  // TodoWrite's list from the app state; before the session says, the transcript's last TodoWrite.
  const appTodos = useAppTodos(agent);
  const todos = useMemo(
    () => (appTodos ? (appTodos.length > 0 ? appTodos : null) : latestTodos(items)),
    [appTodos, items],
  );
  const permissionSlot = useToolPromptSlot(agent);
  const agentRan = useAgentRan(agent?.sandbox);
  // One function for the page's life: a new one per render made every transcript entry (memo) render
  // again on each event (every card of a 50-card turn redrawn per streamed event).
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const empty = items.length === 0;

  const tabs = sideTabs({
    agent,
    filesRefresh,
    openFile,
    hideProjectControls: embed?.hideProjectControls,
    theme: prefs.theme,
    previewUrl,
    todos,
    requests: view?.usage.requests ?? [],
    keyless,
    context: habits.context,
    hidden: embed?.hiddenTabs,
    agentRan,
  });

  return (
    <SandboxContext.Provider value={agent?.sandbox ?? null}>
      <div className={phone ? 'app app-phone' : 'app'} data-pane={phone ? pane : undefined}>
        <Header
          sandbox={agent ? agent.sandbox.info() : null}
          model={settings.model}
          save={view && view.transcript.items.length > 0 ? view.save : null}
          saveError={view?.saveError}
          usage={view?.usage.requests ?? []}
          context={habits.context}
          demo={keyless}
          sessionsOpen={prefs.sessionsOpen}
          sideOpen={prefs.sideOpen}
          onToggleSessions={() => wb.updatePrefs({ sessionsOpen: !prefs.sessionsOpen })}
          onToggleSide={() => wb.updatePrefs({ sideOpen: !prefs.sideOpen })}
          onOpenUsage={() => showTab('usage')}
          onOpenSettings={openSettings}
        />
        {(!online || view?.networkFailed) && (
          <div
            className="banner banner-offline"
            role="alert"
            data-testid="offline-banner"
            data-reason={online ? 'fetch' : 'offline'}
          >
            <div className="banner-text">
              <div>{online ? 'The API could not be reached.' : 'You are offline.'}</div>
              <div className="banner-detail">
                {online
                  ? 'Check your connection and the base URL in Settings, then send again.'
                  : 'Requests to the model will fail until the connection is back. Files and saved sessions still work.'}
              </div>
            </div>
          </div>
        )}
        <LiveAnnouncer items={items} sessionId={view?.id ?? null} />
        {phone && <PhoneSwitcher pane={pane} onSelect={selectPane} running={running} />}
        <div className="app-body">
          {(phone ? pane === 'sessions' : prefs.sessionsOpen) && (
            <>
              <div className="sessions-col" style={phone ? undefined : { width: prefs.sessionsWidth }}>
                <SessionsPanel
                  sessions={wb.sessions}
                  currentId={view?.id ?? null}
                  currentTitle={view?.title ?? ''}
                  currentEmpty={empty}
                  onNew={() => {
                    void wb.newSession();
                    if (phone) setPane('chat');
                  }}
                  onSwitch={(id) => {
                    void wb.switchSession(id);
                    if (phone) setPane('chat');
                  }}
                  onRename={wb.renameSession}
                  onDelete={wb.deleteSession}
                  onExport={wb.exportSession}
                  onImport={wb.importSession}
                />
              </div>
              {!phone && (
                <Splitter
                  label="Resize the sessions list"
                  value={prefs.sessionsWidth}
                  min={160}
                  max={420}
                  direction={1}
                  onChange={(sessionsWidth) => wb.updatePrefs({ sessionsWidth })}
                  onReset={() => wb.updatePrefs({ sessionsWidth: DEFAULT_PREFS.sessionsWidth })}
                  testId="sessions-splitter"
                />
              )}
            </>
          )}
          <main className="chat" hidden={phone && pane !== 'chat'}>
            {wb.bootError && (
              <div
                className="banner banner-error boot-error"
                role="alert"
                data-testid="error-banner"
                data-error-kind="boot"
              >
                <div className="banner-text">
                  <div>The sandbox could not start.</div>
                  <div className="banner-detail">{wb.bootError}</div>
                </div>
              </div>
            )}
            {wb.model?.readOnly && (
              <div className="banner banner-warn" role="alert" data-testid="readonly-banner">
                <div className="banner-text">
                  <div>This session is open in another tab.</div>
                  <div className="banner-detail">
                    So that the two tabs do not overwrite each other, this one only shows it and saves
                    nothing. It opens here for real once the other tab closes it; or start a new session in
                    this tab.
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={wb.newSession}
                  data-testid="readonly-new"
                >
                  New session
                </button>
              </div>
            )}
            {view?.save === 'error' && (
              <div className="banner banner-error" role="alert" data-testid="save-error-banner">
                <div className="banner-text">
                  <div>{view.saveError ?? 'This session could not be saved.'}</div>
                </div>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void downloadSession(wb, view.id)}
                  data-testid="save-error-export"
                >
                  Export
                </button>
              </div>
            )}
            {view?.projectSaveError && (
              <div className="banner banner-error" role="alert" data-testid="project-save-error-banner">
                <div className="banner-text">
                  <div>{view.projectSaveError}</div>
                </div>
              </div>
            )}
            {empty ? (
              <div className="transcript">
                <div className="transcript-inner">
                  <EmptyState
                    onPick={(text) => {
                      setPrompt(text);
                      inputRef.current?.focus();
                    }}
                    connected={connected}
                    onOpenSettings={openSettings}
                    onOpenFile={(path) => {
                      showTab('files');
                      setOpenFile({ path });
                    }}
                  />
                </div>
              </div>
            ) : (
              <Transcript
                items={items}
                running={running}
                retry={view?.transcript.retry}
                onOpenSettings={openSettings}
                virtualize={VIRTUALIZE}
                permissionSlot={permissionSlot}
              />
            )}
            <McpRequests manager={agent?.mcp} />
            <div className="composer">
              <TodoStrip todos={todos} onOpen={() => showTab('todos')} />
              <PromptBox
                value={prompt}
                onChange={setPrompt}
                onSend={send}
                onQueue={enqueue}
                onStop={interrupt}
                running={running}
                ready={agent !== null}
                readOnly={wb.model?.readOnly}
                inputRef={inputRef}
                history={history}
                queued={queue}
                onRemoveQueued={(i) => setQueue((q) => q.filter((_, j) => j !== i))}
                mode={settings.permissionMode}
                onModeChange={setMode}
                completion={habits.completion}
                compact={phone}
              />
            </div>
          </main>
          {(phone ? sidePane : prefs.sideOpen) && (
            <>
              {!phone && (
                <Splitter
                  label="Resize the side panel"
                  value={prefs.sideWidth}
                  min={260}
                  max={760}
                  direction={-1}
                  onChange={(sideWidth) => wb.updatePrefs({ sideWidth })}
                  onReset={() => wb.updatePrefs({ sideWidth: DEFAULT_PREFS.sideWidth })}
                  testId="side-splitter"
                />
              )}
              <div className="side-col" style={phone ? undefined : { width: prefs.sideWidth }}>
                <SidePanel
                  tabs={tabs}
                  active={prefs.sideTab}
                  onSelect={showTab}
                  {...(phone
                    ? { inStrip: (id: SideTab) => pane === 'more' && id !== 'files' && id !== 'terminal' }
                    : {})}
                />
              </div>
            </>
          )}
        </div>
        <SettingsDialog
          open={settingsOpen}
          settings={settings}
          theme={prefs.theme}
          rememberKey={prefs.rememberKey}
          onSave={saveSettings}
          onClose={() => setSettingsOpen(false)}
          listModels={listModels}
          hostBaseURL={embed?.hostBaseURL}
        />
      </div>
    </SandboxContext.Provider>
  );
}

/** Saves the session's export file (the storage-full banner's way to keep a copy). */
async function downloadSession(wb: ReturnType<typeof useWorkbench>, id: string): Promise<void> {
  const file = await wb.exportSession(id);
  if (file) downloadText(file.name, file.json, 'application/json');
}
