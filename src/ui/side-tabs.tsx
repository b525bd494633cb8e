/**
 * The workbench's side-panel tabs (Files, Terminal, Preview, Todos, Usage, MCP, Permissions): what each
 * shows and its badge. The terminal, the Usage, MCP and Permissions panels and the project controls load
 * on first use, not with the page (the package's first-load budget).
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import type { AgentSession } from '../agent/types.ts';
import { FilesPanel } from './FilesPanel.tsx';
import type { SideTabDef } from './SidePanel.tsx';
import { PreviewPanel, TodoPanel } from './SidePanels.tsx';
import type { Theme } from './settings-store.ts';

const McpPanel = lazy(() => import('./McpPanel.tsx').then((m) => ({ default: m.McpPanel })));
const PermissionRules = lazy(() =>
  import('./PermissionRules.tsx').then((m) => ({ default: m.PermissionRules })),
);
const UsagePanel = lazy(() => import('./UsagePanel.tsx').then((m) => ({ default: m.UsagePanel })));
const Terminal = lazy(() => import('./Terminal.tsx').then((m) => ({ default: m.Terminal })));
/** The sandbox/project controls reach the sandbox host (select.ts): loaded with the agent, not before. */
const ProjectControls = lazy(() =>
  import('./ProjectControls.tsx').then((m) => ({ default: m.ProjectControls })),
);

type UsageProps = ComponentProps<typeof import('./UsagePanel.tsx').UsagePanel>;

export interface SideTabsInput {
  agent: AgentSession | null;
  filesRefresh: number;
  openFile: { path: string } | null;
  hideProjectControls?: boolean;
  theme: Theme;
  previewUrl: ComponentProps<typeof PreviewPanel>['url'];
  todos: ComponentProps<typeof TodoPanel>['todos'];
  requests: UsageProps['requests'];
  keyless: UsageProps['demo'];
  context: UsageProps['context'];
  /** Tabs an embed hides. */
  hidden?: readonly string[];
  /** The agent ran a command: the terminal mounts (hidden) to keep what it shows across a reload. */
  agentRan?: boolean;
}

const loading = (what = '') => <div className="panel-empty muted">Loading{what}…</div>;

export function sideTabs(input: SideTabsInput): SideTabDef[] {
  const { agent, todos } = input;
  const all: SideTabDef[] = [
    {
      id: 'files',
      label: 'Files',
      render: () => (
        <>
          <FilesPanel
            sandbox={agent?.sandbox ?? null}
            refreshKey={input.filesRefresh}
            openRequest={input.openFile}
            onUserEdit={(path) => agent?.noteUserEdit?.(path)}
          />
          {agent && !input.hideProjectControls && (
            <Suspense fallback={null}>
              <ProjectControls sandbox={agent.sandbox} />
            </Suspense>
          )}
        </>
      ),
    },
    {
      id: 'terminal',
      label: 'Terminal',
      mountNow: input.agentRan,
      render: () => (
        <Suspense fallback={loading(' the terminal')}>
          <Terminal sandbox={agent?.sandbox ?? null} theme={input.theme} />
        </Suspense>
      ),
    },
    {
      id: 'preview',
      label: 'Preview',
      badge: input.previewUrl ? '●' : undefined,
      render: () => <PreviewPanel url={input.previewUrl} />,
    },
    {
      id: 'todos',
      label: 'Todos',
      badge: todos ? `${todos.filter((t) => t.status === 'completed').length}/${todos.length}` : undefined,
      render: () => <TodoPanel todos={todos} />,
    },
    {
      id: 'usage',
      label: 'Usage',
      render: () => (
        <Suspense fallback={loading()}>
          <UsagePanel
            requests={input.requests}
            demo={input.keyless}
            context={input.context}
            toolSearch={agent?.toolSearchMode?.()}
          />
        </Suspense>
      ),
    },
    {
      id: 'mcp',
      label: 'MCP',
      render: () => (
        <Suspense fallback={loading()}>
          <McpPanel manager={agent?.mcp} />
        </Suspense>
      ),
    },
    {
      id: 'rules',
      label: 'Permissions',
      render: () => (
        <Suspense fallback={loading()}>
          <PermissionRules session={agent} />
        </Suspense>
      ),
    },
  ];
  const { hidden } = input;
  return hidden ? all.filter((t) => !hidden.includes(t.id)) : all;
}
