/**
 * Generated inputs for differential tests: JavaScript source text for values (nested objects, arrays,
 * Maps, Sets, strings with quotes and escapes, numbers, class instances, ...). The same text is
 * evaluated by Node and by the guest, so each side builds its own value from identical input.
 * Deterministic for a given seed.
 */

/** A small seeded PRNG (mulberry32); returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  '',
  'a',
  'hello world',
  "it's",
  'say "hi"',
  `both ' and "`,
  'all \' " ` three',
  'tab\there',
  'new\nline',
  'é ☃ 😀 中文',
  '\u0000\u001f\u007f\u0085',
  'lone \ud800 surrogate',
  'back\\slash',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a string that looks like a template
  '${template}',
  'x'.repeat(40),
  'multi\nline\nstring that is long enough to split\n',
];

const KEYS = [
  'a',
  'b',
  'foo',
  'bar_1',
  '_x',
  'with space',
  '1',
  '42',
  'a-b',
  '$dollar',
  'é',
  "q'uote",
  'camelCase',
  'Z',
];

export class ValueGen {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = rng(seed);
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  number(): string {
    return this.pick([
      () => String(this.int(10)),
      () => String(this.int(100000)),
      () => String(-this.int(1000)),
      () => '-0',
      () => 'NaN',
      () => '-Infinity',
      () => String(this.int(1000) / 8),
      () => '1e21',
      () => '123456789.125',
      () => String(2 ** 53),
    ])();
  }

  primitive(): string {
    return this.pick([
      () => this.number(),
      () => JSON.stringify(this.pick(STRINGS)),
      () => `${this.int(10 ** 6)}n`,
      () => this.pick(['true', 'false', 'null', 'undefined']),
      () => this.pick(["Symbol('sym')", 'Symbol()', 'Symbol.iterator', "Symbol.for('reg')"]),
    ])();
  }

  key(): string {
    return JSON.stringify(this.pick(KEYS));
  }

  numberArray(): string {
    const length = this.int(40);
    const scale = this.pick([10, 1000, 100000]);
    const items = Array.from({ length }, () => String(this.int(scale) - (this.next() < 0.2 ? scale / 2 : 0)));
    return `[${items.join(', ')}]`;
  }

  object(depth: number): string {
    const count = this.int(7);
    const entries: string[] = [];
    for (let i = 0; i < count; i++) entries.push(`[${this.key()}]: ${this.value(depth + 1)}`);
    if (this.next() < 0.1) entries.push(`[Symbol('k')]: ${this.value(depth + 1)}`);
    return `{ ${entries.join(', ')} }`;
  }

  /** Source text of a value, nested at most about five levels. */
  value(depth = 0): string {
    if (depth > 4 || this.next() < 0.25 + depth * 0.1) return this.primitive();
    return this.pick([
      () => this.object(depth),
      () => this.object(depth),
      () => this.numberArray(),
      () => `[${Array.from({ length: this.int(9) }, () => this.value(depth + 1)).join(', ')}]`,
      () =>
        `new Map([${Array.from({ length: this.int(4) }, () => `[${this.value(depth + 1)}, ${this.value(depth + 1)}]`).join(', ')}])`,
      () => `new Set([${Array.from({ length: this.int(5) }, () => this.value(depth + 1)).join(', ')}])`,
      () => `Object.assign(Object.create(null), ${this.object(depth)})`,
      () => `Object.assign(new (class Point {})(), ${this.object(depth)})`,
      () => `new Date(${this.int(2 ** 40)})`,
      () => this.pick(['/ab+c/gi', '/[\\/]/', 'new RegExp("x", "y")']),
      () =>
        `new ${this.pick(['Uint8Array', 'Int16Array', 'Float64Array'])}([${Array.from({ length: this.int(12) }, () => this.int(300)).join(', ')}])`,
      () =>
        this.pick([
          'function named() {}',
          '() => 1',
          'async function af() {}',
          'class K {}',
          'function* gen() {}',
        ]),
      () => `Object.assign(new Error(${JSON.stringify(this.pick(STRINGS))}), { stack: 'Error: fixed' })`,
      () => this.pick(['new Number(3)', "new String('boxed')", 'new Boolean(false)', 'Object(1n)']),
      () => `[,${this.value(depth + 1)},,]`,
    ])();
  }
}

/** Options objects (as source text) that exercise util.inspect's layout rules. */
export const INSPECT_OPTIONS = [
  '{}',
  '{ depth: 0 }',
  '{ depth: Infinity }',
  '{ depth: null }',
  '{ breakLength: 40 }',
  '{ breakLength: Infinity }',
  '{ compact: false }',
  '{ compact: 1 }',
  '{ compact: true }',
  '{ compact: true, breakLength: 30 }',
  '{ sorted: true }',
  '{ maxArrayLength: 3 }',
  '{ maxStringLength: 5 }',
  '{ numericSeparator: true }',
  '{ colors: true }',
] as const;
