/**
 * Words of the AST: their text after quote removal, and what expanding them does at run time. Besides
 * command substitutions (in the AST as nested scripts), the shell evaluates text as code in places the
 * AST keeps as plain strings: array subscripts (`${a[$(cmd)]}`, `a[$(cmd)]=1`), and arithmetic on
 * run-time values (`$((x))` where x holds `a[$(cmd)]`). Those make a command evaluate run-time code.
 */
import type { CommandNode, ScriptNode, WordNode } from 'just-bash';
import type { ShellWord } from './types.ts';

type ArithExpr = Extract<CommandNode, { type: 'ArithmeticCommand' }>['expression']['expression'];

/**
 * Text a shell may expand as a glob: `*`, `?`, a bracket expression (a `[` with a `]` after it: a lone
 * `[`, as in `[ -f x ]` or `a[b`, is taken as written) and extglob's `+(…)`, `@(…)`, `!(…)` (`*(…)` and
 * `?(…)` hold `*` and `?` already). One path segment, or a whole word (then it errs towards a glob).
 */
export const GLOB_CHARS = /[*?]|\[[\s\S]*\]|[+@!]\(/;

/** A word's text and whether it is only known at run time. Throws on a word part it does not know. */
export function wordOf(word: WordNode): ShellWord {
  let text = '';
  let written = '';
  let dynamic = false;
  let glob = false;
  let split = false;
  const first = word.parts[0];
  const tilde = first?.type === 'TildeExpansion' && first.user === null;
  const visit = (parts: WordNode['parts'], quoted: boolean): void => {
    for (const p of parts) {
      // Unquoted expansions split into words; "$@" and "${a[@]}" do even inside quotes.
      const numeric = p.type === 'ParameterExpansion' && /^[#?$!]$/.test(p.parameter) && p.operation === null;
      if (
        (!quoted &&
          !numeric &&
          [
            'ParameterExpansion',
            'CommandSubstitution',
            'ArithmeticExpansion',
            'BraceExpansion',
            'Glob',
            'ProcessSubstitution',
          ].includes(p.type)) ||
        (p.type === 'ParameterExpansion' && /^(@|\*)$|\[[@*]\]$/.test(p.parameter))
      ) {
        split = true;
      }
      switch (p.type) {
        case 'Literal':
          text += p.value;
          // Inside double quotes the parser has already removed the backslash before " \ $ `.
          written += quoted ? p.value.replace(/["\\$`]/g, '\\$&') : p.value;
          break;
        case 'SingleQuoted':
          text += p.value;
          written += `'${p.value}'`;
          break;
        case 'Escaped':
          text += p.value;
          written += `\\${p.value}`;
          break;
        case 'DoubleQuoted':
          written += '"';
          visit(p.parts, true);
          written += '"';
          break;
        case 'TildeExpansion':
          text += `~${p.user ?? ''}`;
          written += `~${p.user ?? ''}`;
          // `~user` and a `~` after the start depend on the system's users and the shell's rules.
          if (p.user !== null || p !== first) dynamic = true;
          break;
        case 'Glob':
          text += p.pattern;
          written += p.pattern;
          glob = true;
          break;
        case 'ParameterExpansion':
          text += `$${p.parameter}`;
          written += p.operation === null ? `$${p.parameter}` : `\${${p.parameter}…}`;
          dynamic = true;
          break;
        case 'CommandSubstitution':
          text += '$(…)';
          written += '$(…)';
          dynamic = true;
          break;
        case 'ArithmeticExpansion':
          text += '$((…))';
          written += '$((…))';
          dynamic = true;
          break;
        case 'ProcessSubstitution':
          text += '/dev/fd/…';
          written += p.direction === 'output' ? '>(…)' : '<(…)';
          dynamic = true;
          break;
        case 'BraceExpansion':
          text += '{…}';
          written += '{…}';
          dynamic = true;
          break;
        default:
          throw new UnknownSyntax(`unknown word part ${(p as { type: string }).type}`);
      }
    }
  };
  visit(word.parts, false);
  return {
    text,
    written,
    dynamic,
    // The parser marks any unquoted `[` as a glob; one without a `]` after it matches only itself (a
    // run-time part may bring the `]`: then it stays one).
    glob: glob && (dynamic || GLOB_CHARS.test(text)),
    ...(tilde ? { tilde: true } : {}),
    ...(split ? { split: true } : {}),
  };
}

/** A construct the analysis does not know: the line counts as unparseable (the engine asks). */
export class UnknownSyntax extends Error {}

/** What expanding some AST nodes does besides producing words. */
export interface ExpansionFacts {
  /** Scripts that run: command and process substitution bodies. */
  scripts: ScriptNode[];
  /** Shell text that runs or is evaluated (`$(…)` inside arithmetic, static array subscripts). */
  texts: string[];
  /** Why expanding evaluates run-time text as code (empty: it does not). */
  evaluates: string[];
  /** Variables expanding may set (`${X:=v}`, arithmetic assignments). */
  assigns: string[];
}

export const emptyFacts = (): ExpansionFacts => ({ scripts: [], texts: [], evaluates: [], assigns: [] });

const PLAIN_PARTS = new Set(['Literal', 'SingleQuoted', 'Escaped', 'Glob', 'TildeExpansion']);

/** Arithmetic nodes that only hold literal numbers and operators. */
const LITERAL_ARITH = new Set([
  'ArithNumber',
  'ArithSpecialVar',
  'ArithBinary',
  'ArithUnary',
  'ArithTernary',
]);

/**
 * True when evaluating the arithmetic reads nothing that is only known at run time. A variable's value
 * is itself evaluated as arithmetic, and an array subscript in it (`a[$(cmd)]`) runs commands, so any
 * variable, substitution or dynamic part counts.
 */
function literalArithmetic(node: ArithExpr | null | undefined): boolean {
  if (!node) return true;
  if (node.type === 'ArithGroup' || node.type === 'ArithNested') return literalArithmetic(node.expression);
  if (!LITERAL_ARITH.has(node.type)) return false;
  switch (node.type) {
    case 'ArithBinary':
      return literalArithmetic(node.left) && literalArithmetic(node.right);
    case 'ArithUnary':
      return literalArithmetic(node.operand);
    case 'ArithTernary':
      return (
        literalArithmetic(node.condition) &&
        literalArithmetic(node.consequent) &&
        literalArithmetic(node.alternate)
      );
    default:
      return true;
  }
}

/** A subscript (`[...]` of `name[...]`), or null when the name has none or it is `@`, `*` or a number. */
export function riskySubscript(name: string): string | null {
  const open = name.indexOf('[');
  if (open < 0) return null;
  const inner = name.slice(open + 1, name.endsWith(']') ? -1 : undefined);
  return /^(@|\*|-?\d+)$/.test(inner.trim()) ? null : inner;
}

/** Records a subscript that the shell evaluates: its commands run, its names are evaluated in turn. */
function subscript(text: string, facts: ExpansionFacts, where: string): void {
  facts.evaluates.push(`evaluates the array subscript [${text}] ${where}`);
  if (/[$`]/.test(text)) facts.texts.push(text);
}

/**
 * Collects what expanding `node` (any AST value: words, redirections, assignments, expressions) does,
 * without descending into nested scripts (they are returned for the caller to walk).
 */
export function scanExpansions(node: unknown, facts: ExpansionFacts): void {
  if (Array.isArray(node)) {
    if (node.length === 0) return;
    for (const item of node) scanExpansions(item, facts);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as { type?: string } & Record<string, unknown>;
  // Plain text parts expand to themselves.
  if (n.type === 'Literal' || n.type === 'SingleQuoted' || n.type === 'Escaped' || n.type === 'Glob') return;
  // (A brace expansion's item is { type: 'Word', word }: no parts of its own; its word is walked below.)
  if (
    n.type === 'Word' &&
    Array.isArray(n.parts) &&
    n.parts.every((p: { type: string }) => PLAIN_PARTS.has(p.type))
  )
    return;
  switch (n.type) {
    case 'CommandSubstitution':
    case 'ProcessSubstitution':
      facts.scripts.push(n.body as ScriptNode);
      return;
    case 'ArithCommandSubst':
      facts.texts.push(n.command as string);
      facts.evaluates.push('evaluates the output of a command as arithmetic');
      return;
    case 'ArithmeticExpression':
      if (!literalArithmetic(n.expression as ArithExpr)) {
        facts.evaluates.push('evaluates arithmetic on values only known at run time');
      }
      break;
    case 'ArithAssignment':
    case 'ArithDynamicAssignment':
      if (typeof n.variable === 'string') facts.assigns.push(n.variable);
      break;
    case 'Assignment': {
      const name = n.name as string;
      const sub = riskySubscript(name);
      if (sub !== null) subscript(sub, facts, 'of an assignment');
      facts.assigns.push(name.replace(/\[.*$/, ''));
      break;
    }
    case 'ParameterExpansion': {
      const parameter = n.parameter as string;
      const sub = riskySubscript(parameter);
      if (sub !== null) subscript(sub, facts, 'of an expansion');
      const op = n.operation as { type: string; operator?: string } | null;
      if (op?.type === 'Indirection') {
        facts.evaluates.push(
          `expands the variable named by $${parameter}, which may hold an array subscript`,
        );
      } else if (op?.type === 'Transform' && op.operator === 'P') {
        facts.evaluates.push(`expands $${parameter} as a prompt string (which runs its substitutions)`);
      } else if (op?.type === 'AssignDefault') {
        facts.assigns.push(parameter.replace(/\[.*$/, ''));
      }
      break;
    }
  }
  for (const [key, value] of Object.entries(n)) {
    if (key !== 'type' && value !== null && typeof value === 'object') scanExpansions(value, facts);
  }
}
