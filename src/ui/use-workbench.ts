/**
 * The workbench controller: loads saved settings and sessions, starts the page's one AgentSession (its
 * sandbox is the workspace every session works in, as a project directory is for Claude Code), opens a
 * session into it (transcript restored and repaired, a SessionModel saving it), and the actions of the
 * sessions list (new, switch, rename, delete, export, import). The page reaches the agent only through
 * AgentSession and files only through its Sandbox.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { type ImportResult, parseSessionExport, toExport } from '../agent/session-export.ts';
import {
  createSessionsStore,
  newSessionRecord,
  type SessionMeta,
  type SessionRecord,
  type SessionsStore,
} from '../agent/sessions-store.ts';
import type { AgentSession, AgentSettings } from '../agent/types.ts';
import { messageOf } from '../core/errors.ts';
import { createDefaultStore } from '../core/storage.ts';
import { loadAgentModule, PLACEHOLDER_SETTINGS } from './agent-module.ts';
import { shellRunsSinceLastPrompt } from './habits-state.ts';
import { readKeptAnswers } from './kept-answers.ts';
import { acquireSessionLock, type SessionLock } from './session-lock.ts';
import {
  createSessionModel,
  restoreRecord,
  type SessionModel,
  type SessionViewState,
} from './session-model.ts';
import { createSettingsStore, DEFAULT_PREFS, type Prefs, type SettingsStore } from './settings-store.ts';
import { fromStoredView } from './stored-view.ts';
import { readTabSession, writeTabSession } from './tab-session.ts';

/**
 * Starts the page's agent. `sessionId` is the session opened first: the agent keys its request-prefix
 * caches (schemas, the pinned date) by it, so a reload of that session sends byte-identical tools and
 * system and the prompt cache hits.
 */

/** Deletes a session's spilled tool results from IndexedDB. Never rejects (a failure leaves them to eviction). */
async function removeSpillsOf(sessionId: string): Promise<void> {
  try {
    // The store module is in the main bundle already (the sessions store uses it); the spill code is not.
    const { removeSessionSpills } = await import('../core/tool-results.ts');
    await removeSessionSpills(createDefaultStore('results'), sessionId);
  } catch {
    // Eviction by age removes them later.
  }
}

export type CreateSession = (options: {
  settings: AgentSettings;
  sessionId?: string;
}) => Promise<AgentSession>;

export interface WorkbenchDeps {
  createSession?: CreateSession;
  sessionsStore?: SessionsStore;
  settingsStore?: SettingsStore;
  initialSettings?: AgentSettings;
}

export interface Workbench {
  /** False until saved settings and the first session are loaded. */
  loaded: boolean;
  bootError: string | null;
  agent: AgentSession | null;
  model: SessionModel | null;
  view: SessionViewState | null;
  sessions: SessionMeta[];
  settings: AgentSettings;
  prefs: Prefs;
  updateSettings(patch: Partial<AgentSettings>, rememberKey?: boolean): void;
  updatePrefs(patch: Partial<Prefs>): void;
  newSession(): Promise<void>;
  switchSession(id: string): Promise<void>;
  renameSession(id: string, title: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** The session's export JSON (no API key), or undefined when it is gone. */
  exportSession(id: string): Promise<{ name: string; json: string } | undefined>;
  /** Validates and stores an exported session, then opens it; a refused file changes nothing. */
  importSession(text: string): Promise<ImportResult>;
}

const EMPTY_STATE = () => () => {};

/** The default agent: `createAgentSession`, from the lazily loaded agent module. */
const defaultCreateSession: CreateSession = async (options) =>
  (await loadAgentModule()).createAgentSession(options);

export function useWorkbench(deps: WorkbenchDeps = {}): Workbench {
  const [stores] = useState(() => ({
    sessions: deps.sessionsStore ?? createSessionsStore(),
    settings: deps.settingsStore ?? createSettingsStore(),
  }));
  const createSession = deps.createSession ?? defaultCreateSession;
  const [loaded, setLoaded] = useState(false);
  const [bootError, setBootError] = useState<string | null>(null);
  const [settings, setSettings] = useState<AgentSettings>(() => deps.initialSettings ?? PLACEHOLDER_SETTINGS);
  const [prefs, setPrefs] = useState<Prefs>(DEFAULT_PREFS);
  const [sessions, setSessions] = useState<SessionMeta[]>([]);
  const [open, setOpen] = useState<{ agent: AgentSession; model: SessionModel; lock: SessionLock } | null>(
    null,
  );
  /** The saved session shown while the agent starts (read-only until then). */
  const [bootView, setBootView] = useState<SessionViewState | null>(null);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const prefsRef = useRef(prefs);
  prefsRef.current = prefs;
  const openRef = useRef(open);
  openRef.current = open;
  /** Settings the user changed before the boot merged the stored ones (see the boot effect). */
  const earlyPatch = useRef<Partial<AgentSettings>>({});
  const booted = useRef(false);
  /** Increments per open request: a slower, older open is discarded. */
  const openSeq = useRef(0);

  const refreshList = useCallback(async () => {
    try {
      setSessions(await stores.sessions.list());
    } catch {
      // The list stays as it was; saving reports its own errors.
    }
  }, [stores]);

  const onSaved = useCallback((meta: SessionMeta) => {
    setSessions((list) =>
      [meta, ...list.filter((m) => m.id !== meta.id)].sort((a, b) => b.updatedAt - a.updatedAt),
    );
  }, []);

  /** The page's agent, started once (lazily, with the settings in force then). */
  const agentRef = useRef<Promise<AgentSession> | null>(null);
  const getAgent = useCallback(
    (sessionId: string) => {
      agentRef.current ??= createSession({ settings: settingsRef.current, sessionId });
      return agentRef.current;
    },
    [createSession],
  );

  /** A session was opened since the page loaded. */
  const openedOnce = useRef(false);
  const openRecord = useCallback(
    async (record: SessionRecord, stored: boolean) => {
      const seq = ++openSeq.current;
      let agent: AgentSession;
      try {
        agent = await getAgent(record.id);
      } catch (err) {
        setBootError(messageOf(err));
        return;
      }
      // The agent took the settings in force when it was created; a save since (a key typed while the
      // sandbox started) reached only the page, so the agent gets the page's settings now.
      agent.updateSettings(settingsRef.current);
      // The turn in progress ends first, so the session it belongs to records its interruption.
      await stopRun(agent);
      await openRef.current?.model.dispose();
      openRef.current?.lock.release();
      if (seq !== openSeq.current) return;
      // Another tab with this session open keeps it: this one shows it and writes nothing.
      const lock = await acquireSessionLock(record.id);
      if (seq !== openSeq.current) {
        lock.release();
        return;
      }
      // A session another tab holds runs its background commands there: this tab cannot tell which
      // still run, so their cards are shown as saved (not as stopped by a reload that did not happen).
      // Only the session the page opens first (the tab's own) was shown until the reload: the cards of
      // one opened later stopped following their commands when it was left.
      const seenToReload = !openedOnce.current;
      openedOnce.current = true;
      const { rec, transcript, repaired } = await restoreRecord(
        record,
        readKeptAnswers(),
        lock.held ? agent.sandbox.listBackground().map((p) => p.id) : null,
        seenToReload,
      );
      if (seq !== openSeq.current) {
        lock.release();
        return;
      }
      agent.loadTranscript(rec.messages, shellRunsSinceLastPrompt(transcript.items));
      const model = createSessionModel({
        record: rec,
        transcript,
        agent,
        store: stores.sessions,
        onSaved,
        saveNow: repaired,
        stored: stored ? record : undefined,
        readOnly: !lock.held,
      });
      const opened = { agent, model, lock };
      openRef.current = opened;
      setOpen(opened);
      setBootView(null);
      writeTabSession(rec.id);
      if (lock.held) void stores.settings.saveCurrentSession(rec.id).catch(() => {});
      else {
        // When the other tab lets go, the session opens here for real (as saved by that tab).
        void lock.available.then(async () => {
          if (openRef.current !== opened) return;
          // The other tab's turns changed project files too: this workspace takes them in first, so the
          // transcript it now continues matches the files (a Write it shows is there).
          await agent.reloadProject?.();
          if (openRef.current !== opened) return;
          const fresh = await stores.sessions.load(rec.id).catch(() => undefined);
          if (openRef.current === opened && fresh) await openRecordRef.current?.(fresh, true);
        });
      }
    },
    [getAgent, stores, onSaved],
  );
  const openRecordRef = useRef<typeof openRecord | null>(null);
  openRecordRef.current = openRecord;

  // Boot: saved settings, the sessions list, then the last open session (or a new one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per page
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const agentModule = loadAgentModule();
      const saved = await stores.settings.load();
      const defaults = deps.initialSettings ?? (await agentModule).defaultSettings();
      if (cancelled) return;
      // What the user saved while this loaded (Settings opens at once) wins over what was stored.
      const merged = { ...defaults, ...saved.settings, ...earlyPatch.current };
      settingsRef.current = merged;
      booted.current = true;
      setSettings(merged);
      setPrefs(saved.prefs);
      let list: SessionMeta[] = [];
      try {
        list = await stores.sessions.list();
      } catch {}
      if (cancelled) return;
      setSessions(list);
      // This tab's own session first (another tab may have opened one since), then the page's.
      const id = [readTabSession(), saved.currentSessionId].find(
        (candidate) => candidate !== undefined && list.some((m) => m.id === candidate),
      );
      const record = id ? await stores.sessions.load(id).catch(() => undefined) : undefined;
      if (cancelled) return;
      setLoaded(true);
      if (record) {
        const { rec, transcript } = await restoreRecord(record);
        if (cancelled) return;
        setBootView({
          id: rec.id,
          title: rec.title,
          transcript,
          usage: { requests: rec.usage },
          save: 'saved',
          networkFailed: false,
        });
      }
      await openRecord(record ?? newSessionRecord(), record !== undefined);
    })();
    return () => {
      cancelled = true;
      openSeq.current++;
      const current = openRef.current;
      const agent = agentRef.current;
      agentRef.current = null;
      void (async () => {
        await current?.model.dispose();
        current?.lock.release();
        await (await agent?.catch(() => undefined))?.dispose();
      })();
    };
  }, []);

  // Save what is pending when the tab goes away (reload, close).
  useEffect(() => {
    const onHide = () => void openRef.current?.model.flush();
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, []);

  const model = open?.model ?? null;
  const view = useSyncExternalStore(
    model ? model.subscribe : EMPTY_STATE,
    model ? model.getState : () => null,
  ) as SessionViewState | null;
  const shown = view ?? bootView;

  const updateSettings = useCallback(
    (patch: Partial<AgentSettings>, rememberKey?: boolean) => {
      const next = { ...settingsRef.current, ...patch };
      if (!booted.current) earlyPatch.current = { ...earlyPatch.current, ...patch };
      settingsRef.current = next;
      setSettings(next);
      openRef.current?.agent.updateSettings(patch);
      openRef.current?.model.setSettings({
        model: next.model,
        maxTokens: next.maxTokens,
        permissionMode: next.permissionMode,
      });
      const remember = rememberKey ?? prefsRef.current.rememberKey;
      if (rememberKey !== undefined && rememberKey !== prefsRef.current.rememberKey) {
        const p = { ...prefsRef.current, rememberKey };
        prefsRef.current = p;
        setPrefs(p);
        void stores.settings.savePrefs(p).catch(() => {});
      }
      void stores.settings.saveSettings(next, remember).catch(() => {});
    },
    [stores],
  );

  // A tool changed the mode (EnterPlanMode, an approved plan): the switch shows it and it is saved.
  const agentOpen = open?.agent;
  useEffect(() => {
    if (!agentOpen) return;
    return agentOpen.subscribe((event) => {
      if (event.type === 'permission-mode' && event.mode !== settingsRef.current.permissionMode) {
        updateSettings({ permissionMode: event.mode });
      }
    });
  }, [agentOpen, updateSettings]);

  const updatePrefs = useCallback(
    (patch: Partial<Prefs>) => {
      const p = { ...prefsRef.current, ...patch };
      prefsRef.current = p;
      setPrefs(p);
      void stores.settings.savePrefs(p).catch(() => {});
    },
    [stores],
  );

  const newSession = useCallback(async () => {
    await openRecord(newSessionRecord(), false);
  }, [openRecord]);

  const switchSession = useCallback(
    async (id: string) => {
      if (openRef.current?.model.id === id) return;
      await openRef.current?.model.flush();
      const record = await stores.sessions.load(id);
      if (record) await openRecord(record, true);
      else await refreshList();
    },
    [openRecord, refreshList, stores],
  );

  const renameSession = useCallback(
    async (id: string, title: string) => {
      const current = openRef.current?.model;
      if (current?.id === id) {
        current.rename(title);
        await current.flush();
        return;
      }
      const record = await stores.sessions.load(id);
      if (!record) return;
      await stores.sessions.save({ ...record, title: title.trim() || record.title });
      await refreshList();
    },
    [refreshList, stores],
  );

  const deleteSession = useCallback(
    async (id: string) => {
      const current = openRef.current;
      if (current?.model.id === id) {
        await stopRun(current.agent);
        await current.model.dispose();
        current.lock.release();
      }
      await stores.sessions.remove(id);
      // Its spilled tool results go with it (loaded lazily: the spill code is the agent's, not the page's).
      void removeSpillsOf(id);
      const list = await stores.sessions.list();
      setSessions(list);
      if (current?.model.id === id) {
        const next = list[0] ? await stores.sessions.load(list[0].id) : undefined;
        await openRecord(next ?? newSessionRecord(), next !== undefined);
      }
    },
    [openRecord, stores],
  );

  const exportSession = useCallback(
    async (id: string) => {
      const current = openRef.current?.model;
      let record: SessionRecord | undefined;
      if (current?.id === id) {
        await current.flush();
        record = current.record();
      } else record = await stores.sessions.load(id);
      if (!record) return undefined;
      const slug = record.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 40);
      return { name: `tabcode-${slug || 'session'}.json`, json: toExport(record) };
    },
    [stores],
  );

  const importSession = useCallback(
    async (text: string): Promise<ImportResult> => {
      const result = parseSessionExport(text, (v) => fromStoredView(v));
      if (!result.ok) return result;
      try {
        await stores.sessions.save(result.record);
      } catch (err) {
        return {
          ok: false,
          reason: `The session could not be stored: ${messageOf(err)}`,
        };
      }
      await refreshList();
      await openRecord(result.record, true);
      return result;
    },
    [openRecord, refreshList, stores],
  );

  return {
    loaded,
    bootError,
    agent: open?.agent ?? null,
    model,
    view: shown,
    sessions,
    settings,
    prefs,
    updateSettings,
    updatePrefs,
    newSession,
    switchSession,
    renameSession,
    deleteSession,
    exportSession,
    importSession,
  };
}

/** Interrupts a running turn and waits (up to `timeoutMs`) for it to close. */
async function stopRun(agent: AgentSession, timeoutMs = 5000): Promise<void> {
  if (!agent.isRunning()) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const off = agent.subscribe((e) => {
      if (e.type === 'run-end') done();
    });
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
    agent.interrupt();
    if (!agent.isRunning()) done();
  });
}
