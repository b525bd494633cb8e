/**
 * The part of the TypeScript compiler API (the `typescript` 5.x JavaScript package) the LSP tool uses,
 * typed structurally so this code compiles whether or not that package is installed. The worker passes
 * the real module in; nothing else may import it (it must stay in the worker's chunk).
 */

export interface TextSpan {
  start: number;
  length: number;
}

export interface DiagnosticLike {
  file?: { fileName: string };
  start?: number;
  length?: number;
  messageText: string | { messageText: string; next?: unknown[] };
  category: number;
  code: number;
}

export interface NavigationTreeLike {
  text: string;
  kind: string;
  spans: TextSpan[];
  childItems?: NavigationTreeLike[];
}

export interface LanguageServiceLike {
  getSyntacticDiagnostics(fileName: string): DiagnosticLike[];
  getSemanticDiagnostics(fileName: string): DiagnosticLike[];
  getDefinitionAtPosition(
    fileName: string,
    position: number,
  ): readonly { fileName: string; textSpan: TextSpan }[] | undefined;
  getReferencesAtPosition(
    fileName: string,
    position: number,
  ): readonly { fileName: string; textSpan: TextSpan }[] | undefined;
  getQuickInfoAtPosition(
    fileName: string,
    position: number,
  ): { displayParts?: { text: string }[]; documentation?: { text: string }[] } | undefined;
  getNavigationTree(fileName: string): NavigationTreeLike;
}

export interface ScriptSnapshotLike {
  getText(start: number, end: number): string;
  getLength(): number;
  getChangeRange(): undefined;
}

export interface LanguageServiceHostLike {
  getScriptFileNames(): string[];
  getScriptVersion(fileName: string): string;
  getScriptSnapshot(fileName: string): ScriptSnapshotLike | undefined;
  getCurrentDirectory(): string;
  getCompilationSettings(): Record<string, unknown>;
  getDefaultLibFileName(options: Record<string, unknown>): string;
  fileExists(path: string): boolean;
  readFile(path: string): string | undefined;
  directoryExists(path: string): boolean;
  getDirectories(path: string): string[];
  useCaseSensitiveFileNames(): boolean;
}

/** What of the `ts` namespace the language service needs. */
export interface TsApi {
  version: string;
  createLanguageService(host: LanguageServiceHostLike, registry?: unknown): LanguageServiceLike;
  createDocumentRegistry(): unknown;
  ScriptSnapshot: { fromString(text: string): ScriptSnapshotLike };
  getDefaultLibFileName(options: Record<string, unknown>): string;
  flattenDiagnosticMessageText(message: DiagnosticLike['messageText'], newLine: string): string;
  parseConfigFileTextToJson(fileName: string, text: string): { config?: unknown; error?: DiagnosticLike };
  convertCompilerOptionsFromJson(
    options: unknown,
    basePath: string,
  ): { options: Record<string, unknown>; errors: DiagnosticLike[] };
  DiagnosticCategory: { Error: number; Warning: number; Suggestion: number; Message: number };
}
