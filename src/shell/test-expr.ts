/**
 * `test` and `[`: read-only unless they evaluate text as code. The shell evaluates the operand of `-v`
 * (`test -v 'a[$(cmd)]'` runs cmd through the subscript) and, in `[[` only, the operands of numeric
 * comparisons as arithmetic: `test` and `[` compare integers as written (bash and just-bash alike say
 * "integer expression expected" of `[ 'a[$(cmd)]' -lt 2 ]` and run nothing; test-expr.test.ts checks
 * just-bash). A word only known at run time where an operator could stand might become `-v`.
 */
import type { CommandNode } from 'just-bash';
import type { ProgramFacts } from './facts.ts';
import type { ShellWord } from './types.ts';
import { wordOf } from './words.ts';

type ConditionalExpressionNode = Extract<CommandNode, { type: 'ConditionalCommand' }>['expression'];

const NAME_OPERATORS = new Set(['-v', '-R']);

/** An operand arithmetic cannot turn into code: a literal integer, or `$#`, `$?`, `$$`, `$!`. */
export function safeNumber(w: ShellWord): boolean {
  return w.dynamic ? /^\$[#?$!]$/.test(w.text) : /^\s*[-+]?\d+\s*$/.test(w.text);
}

/** An operand of `-v` that names a plain variable (no subscript to evaluate). */
export function safeName(w: ShellWord): boolean {
  return !w.dynamic && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.text);
}

interface Risk {
  evaluates: string[];
  texts: string[];
}

function checkName(w: ShellWord | undefined, risk: Risk, op: string): void {
  if (!w || safeName(w)) return;
  risk.evaluates.push(`${op} ${w.text} evaluates a variable subscript`);
  if (!w.dynamic && /[$`]/.test(w.text)) risk.texts.push(w.text);
}

/** Static operators: every `-v`, wherever it stands (the safe side). */
function staticRisks(words: readonly ShellWord[], risk: Risk): void {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w.dynamic && NAME_OPERATORS.has(w.text)) checkName(words[i + 1], risk, w.text);
  }
}

/**
 * True when every run-time word stands where only an operand can (POSIX's rules by argument count, up
 * to four arguments): then it cannot become an operator.
 */
function dynamicOnlyAsOperands(args: readonly ShellWord[]): boolean {
  if (!args.some((w) => w.dynamic)) return true;
  // A word that may split (`$x` unquoted, "$@", what xargs appends) may become any number of
  // arguments, operators among them.
  if (args.some((w) => w.split)) return false;
  const [a0, a1, , a3] = args;
  switch (args.length) {
    case 1:
      return true;
    case 2:
      // `! X` or `-op X`: the second is an operand.
      return !a0.dynamic;
    case 3:
      // `X op Y` when the middle is an operator; `! X Y` and `( X )` keep it static too.
      return !a1.dynamic;
    case 4:
      if (a0.dynamic) return false;
      if (a0.text === '!') return dynamicOnlyAsOperands(args.slice(1));
      if (a0.text === '(' && !a3.dynamic && a3.text === ')') return dynamicOnlyAsOperands(args.slice(1, 3));
      return false;
    default:
      return false;
  }
}

/** Facts of `test` / `[`. */
export function analyzeTest(name: string, words: readonly ShellWord[]): ProgramFacts {
  const args = name === '[' && words[words.length - 1]?.text === ']' ? words.slice(0, -1) : words;
  const risk: Risk = { evaluates: [], texts: [] };
  staticRisks(args, risk);
  if (!dynamicOnlyAsOperands(args)) {
    risk.evaluates.push(`a word of ${name} only known at run time could be an operator such as -v`);
  }
  return {
    paths: [],
    problem: risk.evaluates[0] ?? null,
    scripts: [],
    opaque: false,
    evaluates: risk.evaluates,
    evaluatedTexts: risk.texts,
    destructive: false,
    changesState: false,
  };
}

/**
 * `[[ -v name ]]` and `[[ … -eq … ]]`: bash evaluates the operand's subscript, and numeric operands as
 * arithmetic. Pushes why onto `out`; `evaluated` receives static text holding substitutions.
 */
export function conditionalRisks(
  expr: ConditionalExpressionNode,
  out: string[],
  evaluated: (text: string) => void,
): void {
  switch (expr.type) {
    case 'CondUnary':
      if (expr.operator === '-v' || expr.operator === '-R') {
        const w = wordOf(expr.operand);
        if (!safeName(w)) {
          out.push(`[[ ${expr.operator} ]] evaluates the subscript of ${w.text}`);
          if (!w.dynamic && /[$`]/.test(w.text)) evaluated(w.text);
        }
      }
      return;
    case 'CondBinary':
      if (/^-(eq|ne|lt|le|gt|ge)$/.test(expr.operator)) {
        for (const side of [expr.left, expr.right]) {
          const w = wordOf(side);
          if (safeNumber(w)) continue;
          out.push(`[[ ${expr.operator} ]] evaluates ${w.text} as arithmetic`);
          if (!w.dynamic && /[$`]/.test(w.text)) evaluated(w.text);
        }
      }
      return;
    case 'CondNot':
    case 'CondGroup':
      conditionalRisks('operand' in expr ? expr.operand : expr.expression, out, evaluated);
      return;
    case 'CondAnd':
    case 'CondOr':
      conditionalRisks(expr.left, out, evaluated);
      conditionalRisks(expr.right, out, evaluated);
      return;
    default:
      return;
  }
}
