/**
 * Variable attributes the walker tracks along a line: names declared `-n` (a nameref: assigning one
 * sets the variable it names, which may be HOME, PATH or PS4) and `-i` (an integer: a value that is not
 * a number is evaluated as arithmetic, which runs what a subscript in it, or in a variable it names,
 * holds). A run-time word in a declaration, or an alias whose body declares, may give any name either.
 */
import type { ShellWord } from './types.ts';

/** What assigning a name does besides setting a variable of the script's own. */
export type Attributed =
  | { kind: 'nameref'; reason: string }
  | { kind: 'integer'; reason: string; evaluated: string | null };

export class VariableAttributes {
  private readonly namerefs = new Set<string>();
  private readonly integers = new Set<string>();
  private any = false;

  /** `declare -n r=HOME`, `local -n`, `typeset -i n`: applies from the next command on. */
  declare(builtin: string, words: readonly ShellWord[]): void {
    if (builtin !== 'declare' && builtin !== 'typeset' && builtin !== 'local') return;
    let nameref = false;
    let integer = false;
    for (const w of words.slice(1)) {
      if (w.dynamic) {
        this.any = true;
        continue;
      }
      if (/^-[a-zA-Z]+$/.test(w.text)) {
        nameref ||= w.text.includes('n');
        integer ||= w.text.includes('i');
        continue;
      }
      const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(w.text);
      if (!m) continue;
      if (nameref) this.namerefs.add(m[1]);
      if (integer) this.integers.add(m[1]);
    }
  }

  /**
   * `alias d='declare -n'; d r=HOME`: the body is walked without the call's words, so the names it
   * declares are not seen; any name may be a nameref or an integer from here on.
   */
  alias(body: string | null): void {
    if (body === null || /(^|[\s;&|(`])(declare|typeset|local)(\s|$)/.test(body)) this.any = true;
  }

  /** Whether `name` may be a nameref (`read r`, `r=x` set the variable it names). */
  mayBeNameref(name: string): boolean {
    return this.any || this.namerefs.has(name);
  }

  /** What assigning `value` to `name` does besides setting it, or null. */
  assigned(name: string, value: ShellWord): Attributed | null {
    if (this.mayBeNameref(name)) {
      return {
        kind: 'nameref',
        reason: `${name} may be a nameref (declare -n): assigning it sets another variable, which the shell or a program may read`,
      };
    }
    if (this.integers.has(name) && !/^\s*-?\d+\s*$/.test(value.text)) {
      return {
        kind: 'integer',
        reason: `${name} is an integer variable (declare -i): its value ${value.text} is evaluated as arithmetic, which may run code`,
        evaluated: /[$`]/.test(value.text) ? value.text : null,
      };
    }
    return null;
  }

  /** What is known, as one comparable value (a loop is walked again when its first pass changed it). */
  state(): string {
    return `${this.any}:${this.namerefs.size}:${this.integers.size}`;
  }
}
