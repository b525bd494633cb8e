/**
 * The terminal's line editor for sandboxes without an interactive shell (just-bash): turns the keys
 * xterm sends into edits of one input line, and says what to draw and which lines to run. Plain data
 * in, plain data out; no DOM.
 *
 * Keys: printable text (pastes too; a newline in a paste submits), Enter, Backspace, Delete, ←/→,
 * Home/End (and Ctrl-A/Ctrl-E), ↑/↓ through history, Ctrl-U (clear the line), Ctrl-C (cancel the line,
 * or interrupt the running command), Ctrl-L (clear the screen).
 */

export type EditorAction =
  | { type: 'write'; text: string }
  | { type: 'submit'; line: string }
  | { type: 'interrupt' }
  | { type: 'clear-screen' };

/** Most lines kept in history. */
const HISTORY_LIMIT = 200;

const KEYS: Record<string, string> = {
  '\x1b[A': 'up',
  '\x1b[B': 'down',
  '\x1b[C': 'right',
  '\x1b[D': 'left',
  '\x1b[H': 'home',
  '\x1b[F': 'end',
  '\x1bOH': 'home',
  '\x1bOF': 'end',
  '\x1b[1~': 'home',
  '\x1b[4~': 'end',
  '\x1b[3~': 'delete',
  '\x01': 'home',
  '\x05': 'end',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x03': 'ctrl-c',
  '\x15': 'ctrl-u',
  '\x0c': 'ctrl-l',
};

export class LineEditor {
  private chars: string[] = [];
  private cursor = 0;
  private readonly history: string[] = [];
  /** Position in history while browsing (history.length = the line being typed). */
  private browse = 0;
  private draft: string[] = [];
  /** True while a submitted line runs: keys other than Ctrl-C are kept for after it. */
  busy = false;

  constructor(private prompt: string) {}

  get line(): string {
    return this.chars.join('');
  }

  setPrompt(prompt: string): void {
    this.prompt = prompt;
  }

  /** The prompt and the current line, with the cursor where it belongs (after a fresh line). */
  render(): string {
    const back = this.chars.length - this.cursor;
    return `\r\x1b[K${this.prompt}${this.line}${back > 0 ? `\x1b[${back}D` : ''}`;
  }

  /** Handles input from the terminal. */
  feed(data: string): EditorAction[] {
    const actions: EditorAction[] = [];
    let i = 0;
    while (i < data.length) {
      const rest = data.slice(i);
      const seq = Object.keys(KEYS).find((k) => rest.startsWith(k));
      if (seq) {
        i += seq.length;
        this.key(KEYS[seq], actions);
        continue;
      }
      if (rest.startsWith('\x1b')) {
        // An escape sequence we do not handle (function keys, alt-combos): skip it whole.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: matching an escape sequence
        const m = /^\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?/.exec(rest);
        i += m?.[0].length || 1;
        continue;
      }
      const ch = String.fromCodePoint(rest.codePointAt(0) ?? 32);
      i += ch.length;
      if (ch === '\r' || ch === '\n') {
        if (ch === '\n' && data[i - 2] === '\r') continue;
        this.submit(actions);
      } else if (ch >= ' ' && !this.busy) {
        this.chars.splice(this.cursor, 0, ch);
        this.cursor++;
        actions.push({ type: 'write', text: this.cursor === this.chars.length ? ch : this.render() });
      }
    }
    return merge(actions);
  }

  private key(name: string, actions: EditorAction[]): void {
    if (name === 'ctrl-c') {
      if (this.busy) {
        actions.push({ type: 'interrupt' });
        return;
      }
      this.chars = [];
      this.cursor = 0;
      this.browse = this.history.length;
      actions.push({ type: 'write', text: `^C\r\n${this.render()}` });
      return;
    }
    if (this.busy) return;
    const before = this.render();
    switch (name) {
      case 'left':
        this.cursor = Math.max(0, this.cursor - 1);
        break;
      case 'right':
        this.cursor = Math.min(this.chars.length, this.cursor + 1);
        break;
      case 'home':
        this.cursor = 0;
        break;
      case 'end':
        this.cursor = this.chars.length;
        break;
      case 'backspace':
        if (this.cursor > 0) {
          this.chars.splice(this.cursor - 1, 1);
          this.cursor--;
        }
        break;
      case 'delete':
        this.chars.splice(this.cursor, 1);
        break;
      case 'ctrl-u':
        this.chars = [];
        this.cursor = 0;
        break;
      case 'ctrl-l':
        actions.push({ type: 'clear-screen' }, { type: 'write', text: this.render() });
        return;
      case 'up':
      case 'down': {
        const next = this.browse + (name === 'up' ? -1 : 1);
        if (next < 0 || next > this.history.length) return;
        if (this.browse === this.history.length) this.draft = this.chars;
        this.browse = next;
        this.chars = next === this.history.length ? this.draft : [...this.history[next]];
        this.cursor = this.chars.length;
        break;
      }
    }
    const after = this.render();
    if (after !== before) actions.push({ type: 'write', text: after });
  }

  private submit(actions: EditorAction[]): void {
    if (this.busy) return;
    const line = this.line;
    this.chars = [];
    this.cursor = 0;
    this.draft = [];
    if (line.trim() && this.history.at(-1) !== line) {
      this.history.push(line);
      if (this.history.length > HISTORY_LIMIT) this.history.shift();
    }
    this.browse = this.history.length;
    actions.push({ type: 'write', text: '\r\n' });
    if (line.trim()) {
      this.busy = true;
      actions.push({ type: 'submit', line });
    } else actions.push({ type: 'write', text: this.render() });
  }
}

/** Joins consecutive writes. */
function merge(actions: EditorAction[]): EditorAction[] {
  const out: EditorAction[] = [];
  for (const a of actions) {
    const last = out.at(-1);
    if (a.type === 'write' && last?.type === 'write') last.text += a.text;
    else out.push(a.type === 'write' ? { ...a } : a);
  }
  return out;
}
