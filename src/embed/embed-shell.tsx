/**
 * What `mount()` renders: a bar with the playground's own controls (lesson steps, Play, reset, export
 * of a recorded session, the dependency install), the replay's check results (a mismatch is shown, not
 * hidden), the refused config fields (dismissable), then the workbench. A new scene (reset, another
 * step) is a fresh workbench: the App is keyed by the scene's generation.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { SessionRecord, SessionsStore } from '../agent/sessions-store.ts';
import type { AgentSettings } from '../agent/types.ts';
import { App, type AppEmbedOptions } from '../ui/App.tsx';
import { EmbedEmptyContext, type EmbedEmptyInfo } from '../ui/EmptyState.tsx';
import { createSettingsStore, type Prefs, type SideTab } from '../ui/settings-store.ts';
import type { EmbedConfig, EmbedWarning } from './config.ts';
import type { EmbedController } from './embed-controller.ts';
import { autoHeight, themeScheme } from './embed-root.ts';

export interface EmbedShellProps {
  controller: EmbedController;
  config: EmbedConfig;
  warnings: readonly EmbedWarning[];
  initialSettings: AgentSettings;
  /** The playground's root element (keys are taken and auto-height measured on it). */
  root: HTMLElement;
  /** The element carrying the theme (the root, or the iframe page's own document element). */
  themeRoot: HTMLElement;
  /** `height: 'auto'`: the height the playground wants, as it changes. */
  onAutoHeight?: (height: number) => void;
}

/** The performance mark set once the playground is painted with a usable prompt box. */
export const EMBED_INTERACTIVE_MARK = 'tabcode:embed-interactive';
/** Side panel width in compact mode (px). */
const COMPACT_SIDE_WIDTH = 300;

/** Sessions kept in memory: an embedded playground starts fresh on every load. */
function memorySessionsStore(): SessionsStore {
  const records = new Map<string, SessionRecord>();
  return {
    list: async () =>
      [...records.values()]
        .map(({ id, title, createdAt, updatedAt, messages }) => ({
          id,
          title,
          createdAt,
          updatedAt,
          messageCount: messages.length,
        }))
        .sort((a, b) => b.updatedAt - a.updatedAt),
    load: async (id) => records.get(id),
    save: async (record) => void records.set(record.id, record),
    remove: async (id) => void records.delete(id),
  };
}

/** Settings kept in memory, starting from the config's layout and theme. */
function memorySettingsStore(prefs: Partial<Prefs>) {
  const map = new Map<string, unknown>([['prefs', prefs]]);
  return createSettingsStore({
    get: async <T,>(key: string) => map.get(key) as T | undefined,
    set: async (key: string, value: unknown) => void map.set(key, value),
    del: async (key: string) => void map.delete(key),
  });
}

/** The workbench preferences a config asks for. */
export function embedPrefs(config: EmbedConfig): Partial<Prefs> {
  const layout = config.layout ?? {};
  const scheme = themeScheme(config);
  return {
    theme: scheme === 'auto' ? 'system' : scheme,
    sessionsOpen: layout.sessions === true,
    // Compact embeds start with the side panel closed, unless the config names a panel or file to show.
    sideOpen: layout.sidePanel ?? (!layout.compact || Boolean(layout.panel || layout.file)),
    sideTab: (layout.panel ?? 'files') as SideTab,
    ...(layout.compact ? { sideWidth: COMPACT_SIDE_WIDTH } : {}),
  };
}

function useController(controller: EmbedController) {
  return useSyncExternalStore(controller.subscribe, controller.getState);
}

function downloadJson(name: string, value: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function EmbedShell({
  controller,
  config,
  warnings,
  initialSettings,
  root,
  themeRoot,
  onAutoHeight,
}: EmbedShellProps) {
  const state = useController(controller);
  const [dismissed, setDismissed] = useState(false);
  const { scene, agent } = state;
  const steps = config.lessons?.steps ?? [];
  const step = steps[scene.step];
  const allWarnings = [...warnings, ...state.notices];
  const shown = !dismissed && allWarnings.length > 0;
  // A replay source is known at once; whether it could be read, once the scene's agent starts.
  const hasReplay = state.replay !== 'none' && Boolean(scene.replay ?? config.replay ?? config.demo);
  const keyless = hasReplay || Boolean(config.baseURL);
  const autorunSends = Boolean(config.autorun) && !hasReplay;
  const mismatches = state.checks.filter((c) => !c.ok);

  // One store pair per scene: a reset or a new step starts with nothing of the previous one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new stores per scene
  const stores = useMemo(
    () => ({ sessionsStore: memorySessionsStore(), settingsStore: memorySettingsStore(embedPrefs(config)) }),
    [scene.generation],
  );
  const embed = useMemo<AppEmbedOptions>(
    () => ({
      themeRoot,
      keyTarget: root,
      hiddenTabs: config.layout?.terminal === false ? ['terminal'] : undefined,
      openFile: config.layout?.file,
      prompt: autorunSends ? undefined : scene.prompt,
      hideProjectControls: true,
      hostBaseURL: config.baseURL,
    }),
    [root, themeRoot, config, scene.prompt, autorunSends],
  );

  // What the empty state says: this playground's files and state, not the stand-alone page's.
  const { project } = state;
  const emptyInfo = useMemo<EmbedEmptyInfo>(() => {
    const sceneFiles = scene.files ?? scene.replay?.files;
    return {
      // Known at once from the config; from a replay file once it is read.
      files:
        project?.generation === scene.generation
          ? project.files
          : sceneFiles
            ? Object.keys(sceneFiles)
            : undefined,
      replay: hasReplay,
      autorun: Boolean(config.autorun),
      proxy: config.baseURL,
      filesPanel: config.layout?.sidePanel !== false,
      promptBox: config.layout?.promptBox !== false,
    };
  }, [project, scene, hasReplay, config]);

  useEffect(() => {
    requestAnimationFrame(() => performance.mark(EMBED_INTERACTIVE_MARK));
  }, []);

  // Auto-height: measure whenever the content changes (at most once a frame).
  useEffect(() => {
    if (!onAutoHeight) return;
    let frame = 0;
    let observed: Element | null = null;
    // Only a change is reported: a parent resizing its frame on every message would redo layout for nothing.
    let last: number | undefined;
    const resize = new ResizeObserver(() => schedule());
    const update = () => {
      frame = 0;
      const inner = root.querySelector('.transcript-inner');
      if (inner && inner !== observed) {
        if (observed) resize.unobserve(observed);
        resize.observe(inner);
        observed = inner;
      }
      const height = autoHeight(root);
      if (height !== undefined && height !== last) {
        last = height;
        onAutoHeight(height);
      }
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    const mutations = new MutationObserver(schedule);
    mutations.observe(root, { childList: true, subtree: true });
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      mutations.disconnect();
    };
  }, [root, onAutoHeight]);

  const bar =
    steps.length > 0 ||
    hasReplay ||
    config.resetLabel !== undefined ||
    config.record ||
    state.dependencies.state !== 'none';
  const canPlay = controller.canPlay();

  return (
    <div className="embed-shell" data-testid="embed-shell">
      {bar && (
        <div className="embed-bar" data-testid="embed-bar">
          {step && (
            <span className="embed-step" data-testid="lesson-step" data-step={scene.step}>
              Step {scene.step + 1} of {steps.length}: <strong>{step.title}</strong>
            </span>
          )}
          <span className="embed-bar-actions">
            {step && (
              <>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={scene.step === 0}
                  onClick={() => controller.goToStep(scene.step - 1)}
                  data-testid="lesson-prev"
                >
                  Previous
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={scene.step >= steps.length - 1}
                  onClick={() => controller.goToStep(scene.step + 1)}
                  data-testid="lesson-next"
                >
                  Next
                </button>
                {step.solution && (
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={!agent || state.solutionShown}
                    onClick={() => void controller.showSolution()}
                    data-testid="lesson-solution"
                  >
                    {state.solutionShown ? 'Solution shown' : 'Show solution'}
                  </button>
                )}
              </>
            )}
            {hasReplay && (
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={!canPlay}
                onClick={() => void controller.play()}
                data-testid="embed-play"
                data-state={state.playing ? 'playing' : state.replayDone ? 'done' : 'ready'}
              >
                {state.playing ? 'Playing…' : state.replayDone ? 'Played' : '▶ Play'}
              </button>
            )}
            {(config.resetLabel !== undefined || steps.length > 0) && (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => controller.reset()}
                data-testid="embed-reset"
              >
                {config.resetLabel ?? 'Reset'}
              </button>
            )}
            {config.record && (
              <button
                type="button"
                className="btn btn-small"
                disabled={!agent}
                onClick={() => {
                  const replay = controller.exportReplay();
                  if (replay) downloadJson('tabcode-replay.json', replay);
                }}
                data-testid="embed-export-replay"
              >
                Export replay
              </button>
            )}
            {state.dependencies.state !== 'none' && (
              <span
                className="embed-deps muted"
                data-testid="embed-deps"
                data-state={state.dependencies.state}
              >
                {state.dependencies.state === 'installing'
                  ? 'Installing dependencies…'
                  : state.dependencies.state === 'installed'
                    ? 'Dependencies installed'
                    : 'Dependencies not installed'}
              </span>
            )}
          </span>
        </div>
      )}
      {step?.body && (
        <p className="embed-step-body" data-testid="lesson-body">
          {step.body}
        </p>
      )}
      {state.checks.length > 0 && (
        <div
          className={
            mismatches.length ? 'banner banner-warn embed-replay' : 'embed-replay embed-replay-ok muted'
          }
          role={mismatches.length ? 'alert' : 'status'}
          data-testid="replay-status"
          data-state={mismatches.length ? 'mismatch' : 'ok'}
          data-checks={state.checks.length}
        >
          <div className="banner-text">
            <div>
              {mismatches.length
                ? `${mismatches.length} of ${state.checks.length} replayed tool results differ from the recording:`
                : `${state.checks.length} replayed tool result${state.checks.length === 1 ? '' : 's'} match the recording.`}
            </div>
            {mismatches.map((m) => (
              <details
                key={m.toolUseId}
                className="banner-detail"
                data-testid="replay-mismatch"
                data-tool={m.name}
              >
                <summary>
                  <code>{m.name}</code> ({m.toolUseId}): {m.detail}
                </summary>
                <div className="embed-diff">
                  <div>Recorded</div>
                  <pre>{m.expected}</pre>
                  <div>Now</div>
                  <pre>{m.actual}</pre>
                </div>
              </details>
            ))}
          </div>
        </div>
      )}
      {shown && (
        <div className="banner banner-warn embed-warnings" role="alert" data-testid="embed-warnings">
          <div className="banner-text">
            <div>
              {allWarnings.length === 1
                ? 'The embed config has a field that was ignored:'
                : `The embed config has ${allWarnings.length} fields that were ignored:`}
            </div>
            {allWarnings.map((w) => (
              <div
                className="banner-detail"
                data-testid="embed-warning"
                data-field={w.field}
                key={`${w.field}:${w.message}`}
              >
                <code>{w.field}</code>: {w.message}
              </div>
            ))}
          </div>
          <button type="button" className="btn" onClick={() => setDismissed(true)}>
            Dismiss
          </button>
        </div>
      )}
      <div className="embed-app">
        <EmbedEmptyContext.Provider value={emptyInfo}>
          <App
            key={scene.generation}
            createSession={controller.createSession}
            initialSettings={initialSettings}
            stores={stores}
            keyless={keyless}
            onAgent={controller.onAgent}
            embed={embed}
          />
        </EmbedEmptyContext.Provider>
      </div>
    </div>
  );
}
