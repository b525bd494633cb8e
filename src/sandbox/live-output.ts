/**
 * Live output for the just-bash sandbox. just-bash returns a command line's output only when the whole
 * line has finished; to show it as it happens, every command whose output would reach the line's own
 * stdout/stderr gets redirections to a "live sink" (`>>/dev/tabcode-live/<token>.1 2>>…2`), added by a
 * transform plugin on the parsed script. just-bash writes a command's output to its redirect target when
 * that command ends, so output arrives command by command, in order; the file system wrapper hands
 * those writes to the sink instead of storing them. The sandbox's runtimes (node, npm, python3) are not
 * redirected but told the sink (`TABCODE_LIVE=<token>`) and write into it as the program prints.
 *
 * Only scripts that start with the marker statement (`: __tabcode_live__ <token>`) are rewritten: the
 * sandbox adds it to the lines it runs, a runtime adds it to the scripts it runs (npm's scripts); other
 * nested runs (`bash -c`, `xargs`, `$(…)`) keep returning their output to their caller.
 *
 * What a rewrite may not change, it leaves alone: commands whose output is piped or captured, function
 * bodies (they run wherever they are called), `exec` (its redirections are permanent), background jobs.
 * Added redirections come before the command's own, so `cmd >file` and `cmd 2>&1` still mean what they say.
 */
import type { CommandNode, ScriptNode, SimpleCommandNode, StatementNode, WordNode } from 'just-bash';

type RedirectionNode = SimpleCommandNode['redirections'][number];
type AssignmentNode = SimpleCommandNode['assignments'][number];

export const LIVE_DIR = '/dev/tabcode-live';
const MARKER = '__tabcode_live__';
/** The variable that tells a runtime command which sink it may write to. */
export const LIVE_ENV = 'TABCODE_LIVE';
/** Commands that stream into the sink themselves. */
const STREAMING = new Set(['node', 'npm', 'npx', 'python3', 'python', 'pip', 'pip3']);

export type LiveStream = 'stdout' | 'stderr';
export type LiveListener = (text: string, stream: LiveStream) => void;

interface Sink {
  listener: LiveListener;
  decoders: Record<LiveStream, TextDecoder>;
}

/** The open sinks of one sandbox. */
export class LiveOutputs {
  private readonly sinks = new Map<string, Sink>();

  /** A new sink; its token goes in the marker and the env. */
  open(listener: LiveListener): string {
    const token = randomToken();
    this.sinks.set(token, {
      listener,
      decoders: { stdout: new TextDecoder(), stderr: new TextDecoder() },
    });
    return token;
  }

  close(token: string): void {
    const sink = this.sinks.get(token);
    if (!sink) return;
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = sink.decoders[stream].decode();
      if (rest) sink.listener(rest, stream);
    }
    this.sinks.delete(token);
  }

  /** Writes text to a sink directly (the runtimes); false when the sink is not open. */
  write(token: string, stream: LiveStream, text: string): boolean {
    const sink = this.sinks.get(token);
    if (!sink || !text) return !!sink;
    sink.listener(text, stream);
    return true;
  }

  isOpen(token: string): boolean {
    return this.sinks.has(token);
  }

  /**
   * Handles a file write to a sink path (true), or says it is not one (false). `content` is what
   * just-bash writes: text (`utf8`), or one character per byte (`binary`).
   */
  handleWrite(path: string, content: unknown, encoding: unknown): boolean {
    if (!path.startsWith(`${LIVE_DIR}/`)) return false;
    const m = /^([a-z0-9]+)\.([12])$/.exec(path.slice(LIVE_DIR.length + 1));
    const sink = m ? this.sinks.get(m[1]) : undefined;
    if (!m || !sink) return true;
    const stream: LiveStream = m[2] === '1' ? 'stdout' : 'stderr';
    let text: string;
    if (content instanceof Uint8Array) text = sink.decoders[stream].decode(content, { stream: true });
    else if (typeof content === 'string' && (encoding === 'binary' || encoding === 'latin1')) {
      const bytes = new Uint8Array(content.length);
      for (let i = 0; i < content.length; i++) bytes[i] = content.charCodeAt(i) & 0xff;
      text = sink.decoders[stream].decode(bytes, { stream: true });
    } else text = String(content ?? '');
    if (text) sink.listener(text, stream);
    return true;
  }
}

/** The script the sandbox runs for `command`: the marker, then the command in a group. */
export function liveScript(token: string, command: string): string {
  return `: ${MARKER} ${token}\n{\n${command}\n}`;
}

/** The sink token a runtime command was given, if any (and the env without it). */
export function liveTokenOf(env: Map<string, string> | Record<string, string>): string | undefined {
  const value = env instanceof Map ? env.get(LIVE_ENV) : env[LIVE_ENV];
  return value && /^[a-z0-9]+$/.test(value) ? value : undefined;
}

/** Wraps a just-bash file system so writes to sink paths go to `outputs` instead. */
export function interceptLive<T extends object>(fs: T, outputs: LiveOutputs): T {
  return new Proxy(fs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'appendFile' || prop === 'writeFile') {
        return async (path: unknown, content: unknown, options: unknown) => {
          const encoding =
            typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
          if (typeof path === 'string' && outputs.handleWrite(path, content, encoding)) return;
          return value.call(target, path, content, options);
        };
      }
      return value.bind(target);
    },
  });
}

/** The transform plugin (registered once per Bash instance). */
export function liveTransform(): { name: string; transform(ctx: { ast: ScriptNode }): { ast: ScriptNode } } {
  return {
    name: 'tabcode-live-output',
    transform({ ast }) {
      const token = markerToken(ast.statements[0]);
      if (!token) return { ast };
      const rest = ast.statements.slice(1);
      for (const statement of rest) rewriteStatement(statement, token, { out: true, err: true });
      return { ast: { ...ast, statements: rest } };
    },
  };
}

function markerToken(statement: StatementNode | undefined): string | undefined {
  const cmd = statement?.pipelines[0]?.commands[0];
  if (statement?.pipelines.length !== 1 || cmd?.type !== 'SimpleCommand') return undefined;
  const words = [cmd.name, ...cmd.args].map((w) => (w ? literalOf(w) : undefined));
  if (words.length !== 3 || words[0] !== ':' || words[1] !== MARKER) return undefined;
  return words[2] && /^[a-z0-9]+$/.test(words[2]) ? words[2] : undefined;
}

interface Direct {
  out: boolean;
  err: boolean;
}

function rewriteStatements(statements: StatementNode[], token: string, direct: Direct): void {
  for (const s of statements) rewriteStatement(s, token, direct);
}

function rewriteStatement(statement: StatementNode, token: string, direct: Direct): void {
  if (statement.background) return;
  for (const pipeline of statement.pipelines) {
    const n = pipeline.commands.length;
    pipeline.commands.forEach((command, i) => {
      const last = i === n - 1;
      rewriteCommand(command, token, {
        out: direct.out && last,
        err: direct.err && (last || !pipeline.pipeStderr?.[i]),
      });
    });
  }
}

function rewriteCommand(command: CommandNode, token: string, direct: Direct): void {
  if (!direct.out && !direct.err) return;
  switch (command.type) {
    case 'SimpleCommand': {
      const name = command.name ? literalOf(command.name) : undefined;
      if (!command.name || name === 'exec') return;
      if (name && STREAMING.has(name) && command.redirections.length === 0 && direct.out && direct.err) {
        command.assignments = [...command.assignments, assignment(LIVE_ENV, token)];
        return;
      }
      command.redirections = [...sinkRedirections(token, direct), ...command.redirections];
      return;
    }
    case 'FunctionDef':
      return;
    default: {
      if (
        command.redirections.length > 0 ||
        command.type === 'ArithmeticCommand' ||
        command.type === 'ConditionalCommand'
      ) {
        command.redirections = [...sinkRedirections(token, direct), ...command.redirections];
        return;
      }
      for (const body of bodiesOf(command)) rewriteStatements(body, token, direct);
    }
  }
}

function bodiesOf(
  command: Exclude<CommandNode, { type: 'SimpleCommand' | 'FunctionDef' }>,
): StatementNode[][] {
  switch (command.type) {
    case 'If':
      return [
        ...command.clauses.flatMap((c) => [c.condition, c.body]),
        ...(command.elseBody ? [command.elseBody] : []),
      ];
    case 'For':
    case 'CStyleFor':
      return [command.body];
    case 'While':
    case 'Until':
      return [command.condition, command.body];
    case 'Case':
      return command.items.map((item) => item.body);
    case 'Subshell':
    case 'Group':
      return [command.body];
    default:
      return [];
  }
}

function sinkRedirections(token: string, direct: Direct): RedirectionNode[] {
  const out: RedirectionNode[] = [];
  if (direct.out) out.push(redirection(1, `${LIVE_DIR}/${token}.1`));
  if (direct.err) out.push(redirection(2, `${LIVE_DIR}/${token}.2`));
  return out;
}

function redirection(fd: number, path: string): RedirectionNode {
  return { type: 'Redirection', fd, operator: '>>', target: word(path) };
}

function assignment(name: string, value: string): AssignmentNode {
  return { type: 'Assignment', name, value: word(value), append: false, array: null };
}

function word(text: string): WordNode {
  return { type: 'Word', parts: [{ type: 'Literal', value: text }] };
}

/** A word's text when it is plain literal text (no quotes or expansions); else undefined. */
function literalOf(w: WordNode): string | undefined {
  let out = '';
  for (const part of w.parts) {
    if (part.type !== 'Literal') return undefined;
    out += part.value;
  }
  return out;
}

function randomToken(): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('');
}
