/**
 * The LSP worker's TypeScript: the JavaScript compiler package (`typescript` 5.x, installed under the
 * alias `typescript-5` beside the project's native `typescript` 7 compiler). Typed loosely here and
 * narrowed by ts-api.ts, so the project type-checks with or without it installed.
 */
declare module 'typescript-5' {
  const ts: unknown;
  export default ts;
}
