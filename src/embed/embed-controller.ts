/**
 * The state of one playground beside its workbench: which scene shows (a lesson step, or the config's
 * project; a reset or a step change starts a new scene, i.e. a fresh workbench, agent and sandbox), the
 * replay of the scene and the checks of its tool results, autorun, the dependency install, and the
 * recorder of a live session. The embed shell renders it; mount() drives it through its handle.
 * Nothing here is shared between two playgrounds: every mount() makes its own controller.
 */
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import { messageOf } from '../core/errors.ts';
import { createMemoryStore } from '../core/storage.ts';
import type { McpManager } from '../mcp/manager.ts';
import { loadAgentModule } from '../ui/agent-module.ts';
import type { CreateSession } from '../ui/use-workbench.ts';
import type { EmbedConfig, EmbedHook, EmbedReplay, EmbedWarning } from './config.ts';
import type { EmbedEvent } from './protocol.ts';
import type { ReplayCheck, ReplayPlayer } from './replay-player.ts';
import type { ReplayRecorder } from './replay-recorder.ts';
import { checkReplay } from './validate-replay.ts';

/** What one workbench instance shows: a new scene is a fresh workbench (reset, another lesson step). */
export interface Scene {
  /** Changes with every new scene (the workbench's React key). */
  generation: number;
  /** The lesson step (0 without lessons). */
  step: number;
  files?: Record<string, string>;
  replay?: EmbedReplay;
  prompt?: string;
}

export type DependenciesState =
  | { state: 'none' }
  | { state: 'installing' }
  | { state: 'installed' }
  | { state: 'failed'; message: string };

export interface ControllerState {
  scene: Scene;
  /** The scene's agent, once up. */
  agent: AgentSession | null;
  /** The replay is being played (prompts sent by the playground). */
  playing: boolean;
  /** Every tool result of the scene's replay compared so far. */
  checks: readonly ReplayCheck[];
  /** The scene's replay has no answer left and its last turn ended. */
  replayDone: boolean;
  dependencies: DependenciesState;
  /** Whether the scene plays a replay: `pending` until its agent starts (a replay file may fail to load). */
  replay: 'pending' | 'ready' | 'none';
  solutionShown: boolean;
  /** Problems found after mounting (a replay file that could not be read, a failed install). */
  notices: readonly EmbedWarning[];
  /**
   * The paths of the project a scene's sandbox opened with (`'demo'`: the config gave none, so it holds
   * the demo project), once its replay is read; for the scene of that generation only.
   */
  project?: { generation: number; files: readonly string[] | 'demo' };
}

export interface EmbedController {
  getState(): ControllerState;
  subscribe(listener: () => void): () => void;
  /** The workbench's way to start the scene's agent. */
  createSession: CreateSession;
  /** The workbench reports its agent (once per scene). */
  onAgent(agent: AgentSession): void;
  /** Resolves with the first scene's agent. */
  ready: Promise<AgentSession>;
  /** Host events (see protocol.ts). */
  onEvent(listener: (event: EmbedEvent) => void): () => void;
  /** Whether the scene has a replay whose next turn has a prompt to send. */
  canPlay(): boolean;
  /** Plays the scene's replay from where it is to its end (or until the reader stops it). Never rejects. */
  play(): Promise<void>;
  /** Shows a problem found after mounting (reported to the console and the host as well). */
  notice(warning: EmbedWarning): void;
  /** Sends one prompt in the current scene; resolves when the turn ends. Never rejects. */
  send(prompt: string): Promise<void>;
  interrupt(): void;
  /** The project and the conversation as they were (the same scene again). */
  reset(): void;
  /** Shows lesson step `index`. Returns false for a step that does not exist. */
  goToStep(index: number): boolean;
  /** Writes the step's solution files into the project. */
  showSolution(): Promise<void>;
  /** The live session as a replay (record: true), else undefined. */
  exportReplay(): EmbedReplay | undefined;
  /** Runs autorun once the playground can be seen (`visible`), or at once (`load`). */
  setVisible(visible: boolean): void;
  dispose(): void;
}

/** Where a replay URL is fetched from (the page's own fetch; tests may inject). */
export interface ControllerOptions {
  config: EmbedConfig;
  /** Reports a late warning (also to the console and the host). */
  warn(warning: EmbedWarning): void;
  fetch?: typeof fetch;
  baseURI?: string;
  /** Hooks the host registered as functions (MountOptions.hooks), given to every scene's session. */
  hooks?: readonly EmbedHook[];
}

/** The player and recorder, loaded with the agent (not with the page). */
const loadReplayRuntime = () => import('./replay-runtime.ts');

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The deny rules of `readOnly` patterns (anchored at the project root): Bash writes are refused too. */
export function readOnlyRules(patterns: readonly string[]): string[] {
  return patterns.map((p) => `Edit(/${p.replace(/^\/+/, '')})`);
}

export function createEmbedController(options: ControllerOptions): EmbedController {
  const cfg = options.config;
  const steps = cfg.lessons?.steps ?? [];
  const speed = cfg.replaySpeed ?? 1;
  const listeners = new Set<() => void>();
  const hostListeners = new Set<(event: EmbedEvent) => void>();
  let disposed = false;
  let visible = cfg.autorun !== 'visible';
  /** The generation whose autorun already ran. */
  let autorunDone = -1;
  let player: ReplayPlayer | undefined;
  let recorder: ReplayRecorder | undefined;
  let agentOff: (() => void) | undefined;
  const managers: McpManager[] = [];

  /** The config's replay (fetched when it is a URL), once. */
  let configReplay: Promise<EmbedReplay | undefined> | undefined;
  const loadConfigReplay = (): Promise<EmbedReplay | undefined> => {
    configReplay ??= (async () => {
      if (cfg.demo) return (await loadReplayRuntime()).demoToReplay(cfg.demo);
      if (typeof cfg.replay !== 'string') return cfg.replay;
      const url = new URL(cfg.replay, options.baseURI ?? globalThis.document?.baseURI).href;
      try {
        const res = await (options.fetch ?? globalThis.fetch)(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const text = await res.text();
        return checkReplay(text, 'replay', (field, message) => notice({ field, message }));
      } catch (err) {
        notice({
          field: 'replay',
          message: `The replay file ${url} could not be loaded (${messageOf(err)}); it is not played.`,
        });
        return undefined;
      }
    })();
    return configReplay;
  };

  const sceneFor = (step: number, generation: number): Scene => {
    const s = steps[step];
    return {
      generation,
      step,
      files: s?.files ?? cfg.files,
      replay: s ? s.replay : typeof cfg.replay === 'object' ? cfg.replay : undefined,
      prompt: s ? s.prompt : cfg.prompt,
    };
  };

  let state: ControllerState = {
    scene: sceneFor(cfg.lessons?.start ?? 0, 1),
    agent: null,
    playing: false,
    checks: [],
    replayDone: false,
    dependencies: { state: cfg.dependencies ? 'installing' : 'none' },
    replay: 'pending',
    solutionShown: false,
    notices: [],
  };
  const set = (patch: Partial<ControllerState>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };
  const emit = (event: EmbedEvent) => {
    for (const l of hostListeners) {
      try {
        l(event);
      } catch (err) {
        console.error('tabcode: an embed listener threw', err);
      }
    }
  };
  function notice(warning: EmbedWarning) {
    options.warn(warning);
    set({ notices: [...state.notices, warning] });
  }

  let resolveReady: (agent: AgentSession) => void = () => {};
  const ready = new Promise<AgentSession>((resolve) => {
    resolveReady = resolve;
  });

  const createSession: CreateSession = async ({ settings, sessionId }) => {
    const scene = state.scene;
    const replay = steps.length > 0 ? scene.replay : (scene.replay ?? (await loadConfigReplay()));
    const projectFiles = scene.files ?? replay?.files;
    set({
      project: { generation: scene.generation, files: projectFiles ? Object.keys(projectFiles) : 'demo' },
    });
    // The sandbox's code loads here, after the playground painted (not with the page).
    const [agentModule, { openPlaygroundSandbox, installDependencies }, replays] = await Promise.all([
      loadAgentModule(),
      import('./sandbox-setup.ts'),
      loadReplayRuntime(),
    ]);
    const sandbox = await openPlaygroundSandbox({
      preference: cfg.sandbox ?? 'auto',
      files: scene.files ?? replay?.files,
      readOnly: cfg.readOnly,
    });
    if (cfg.dependencies && Object.keys(cfg.dependencies).length > 0) {
      set({ dependencies: { state: 'installing' } });
      const result = await installDependencies(sandbox, cfg.dependencies);
      if (result.ok) set({ dependencies: { state: 'installed' } });
      else {
        set({ dependencies: { state: 'failed', message: result.message } });
        notice({ field: 'dependencies', message: result.message });
      }
      emit({ type: 'dependencies', ok: result.ok, ...(result.ok ? {} : { message: result.message }) });
    }
    if (scene.generation !== state.scene.generation) {
      // A reset or another step came first: this scene's workbench is gone.
      await sandbox.dispose();
      throw new Error('This playground scene was replaced.');
    }
    player = replay ? replays.createReplayPlayer(replay, { speed }) : undefined;
    set({ replay: player ? 'ready' : 'none' });
    player?.onCheck((check) => {
      set({ checks: [...state.checks, check] });
      emit({
        type: 'replay-check',
        toolUseId: check.toolUseId,
        name: check.name,
        ok: check.ok,
        ...(check.detail ? { detail: check.detail } : {}),
      });
    });
    recorder = cfg.record && !player ? replays.createReplayRecorder({ files: scene.files }) : undefined;
    const { createMcpManager } = await import('../mcp/manager.ts');
    // Only the config's servers (and those the reader adds here, in memory): never the stand-alone page's.
    const mcp = createMcpManager();
    managers.push(mcp);
    for (const server of cfg.mcpServers ?? []) {
      mcp
        .addServer({
          type: 'http',
          name: server.name,
          url: server.url,
          transport:
            server.transport === 'sse' ? 'sse' : server.transport === 'http' ? 'streamable-http' : 'auto',
          ...(server.headers ? { headers: server.headers } : {}),
          source: 'embed',
        })
        .catch((err) => console.warn(`tabcode: embed MCP server ${server.name} is invalid`, err));
    }
    const deny = [...(cfg.permissions?.deny ?? []), ...readOnlyRules(cfg.readOnly ?? [])];
    return agentModule.createAgentSession({
      settings,
      sessionId,
      sandbox,
      mcp,
      permissions: { rules: { ...cfg.permissions, ...(deny.length ? { deny } : {}) }, storage: null },
      storage: { session: createMemoryStore(), results: createMemoryStore() },
      keyless: Boolean(player) || Boolean(cfg.baseURL),
      ...(cfg.memory ? { memory: cfg.memory } : {}),
      ...(options.hooks?.length ? { hooks: [...options.hooks] } : {}),
      ...(player ? { fetch: player.fetch } : recorder ? { fetch: recorder.fetch } : {}),
    });
  };

  const onSessionEvent = (e: SessionEvent) => {
    if (e.type === 'run-end' && player && player.pending() === 0 && !state.replayDone) {
      set({ replayDone: true });
      const mismatches = state.checks.filter((c) => !c.ok).length;
      emit({ type: 'replay-end', checks: state.checks.length, mismatches });
    }
  };

  const maybeAutorun = () => {
    const { agent, scene } = state;
    if (!cfg.autorun || !visible || !agent || autorunDone === scene.generation || disposed) return;
    autorunDone = scene.generation;
    if (controller.canPlay()) void controller.play();
    else if (scene.prompt) void controller.send(scene.prompt);
  };

  const newScene = (step: number) => {
    if (state.agent?.isRunning()) state.agent.interrupt();
    // The old scene's MCP connections go with its workbench.
    for (const m of managers.splice(0)) void m.dispose().catch(() => {});
    agentOff?.();
    agentOff = undefined;
    player = undefined;
    recorder = undefined;
    set({
      scene: sceneFor(step, state.scene.generation + 1),
      agent: null,
      playing: false,
      checks: [],
      replayDone: false,
      replay: 'pending',
      solutionShown: false,
    });
  };

  /** Sends and waits for the run to end; true when the reader (or the host) stopped it. */
  const sendWatched = async (agent: AgentSession, prompt: string): Promise<boolean> => {
    let stopped = false;
    const off = agent.subscribe((e) => {
      if (e.type === 'turn-end' && e.reason === 'interrupted') stopped = true;
    });
    try {
      await agent.send(prompt);
    } finally {
      off();
    }
    return stopped;
  };

  const controller: EmbedController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    createSession,
    onAgent(agent) {
      if (agent === state.agent || disposed) return;
      agentOff?.();
      agentOff = agent.subscribe(onSessionEvent);
      set({ agent });
      resolveReady(agent);
      maybeAutorun();
    },
    ready,
    notice,
    onEvent(listener) {
      hostListeners.add(listener);
      return () => hostListeners.delete(listener);
    },
    canPlay() {
      if (!player || state.playing) return false;
      return Boolean(player.replay.turns[player.nextTurn()]?.prompt);
    },
    async play() {
      const agent = state.agent;
      if (!agent || !player || state.playing || disposed) return;
      const generation = state.scene.generation;
      const current = player;
      set({ playing: true });
      try {
        let first = true;
        while (!disposed && state.scene.generation === generation) {
          const t = current.nextTurn();
          const turn = current.replay.turns[t];
          if (!turn?.prompt) break;
          if (!first && turn.pauseMs && speed > 0) await sleep(turn.pauseMs / speed);
          first = false;
          if (disposed || state.scene.generation !== generation) break;
          if (await sendWatched(agent, turn.prompt)) break;
          // No answer was taken (the turn failed before its first request): stop rather than spin.
          if (current.nextTurn() === t) break;
        }
      } finally {
        if (state.scene.generation === generation) set({ playing: false });
      }
    },
    async send(prompt) {
      const agent = state.agent ?? (await ready);
      if (disposed) return;
      await (state.agent ?? agent).send(prompt);
    },
    interrupt() {
      state.agent?.interrupt();
    },
    reset() {
      newScene(state.scene.step);
      emit({ type: 'reset', step: state.scene.step });
    },
    goToStep(index) {
      if (!Number.isInteger(index) || index < 0 || index >= steps.length) return false;
      newScene(index);
      emit({ type: 'lesson-step', step: index, title: steps[index].title });
      return true;
    },
    async showSolution() {
      const solution = steps[state.scene.step]?.solution;
      const agent = state.agent;
      if (!solution || !agent) return;
      for (const [path, content] of Object.entries(solution)) {
        try {
          await agent.sandbox.writeFile(`${agent.sandbox.root}/${path}`, content);
        } catch (err) {
          notice({
            field: `lessons.steps[${state.scene.step}].solution`,
            message: `${path}: ${messageOf(err)}`,
          });
        }
      }
      set({ solutionShown: true });
    },
    exportReplay: () => recorder?.replay(),
    setVisible(next) {
      visible = visible || next;
      maybeAutorun();
    },
    dispose() {
      disposed = true;
      agentOff?.();
      listeners.clear();
      hostListeners.clear();
      for (const m of managers) void m.dispose().catch(() => {});
    },
  };
  return controller;
}
