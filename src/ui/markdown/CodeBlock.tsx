/** A fenced code block from model text: language label, copy button, highlighted code. */
import { CopyButton } from '../CopyButton.tsx';
import { HighlightedCode } from '../HighlightedCode.tsx';

export function CodeBlock({ code, language }: { code: string; language?: string }) {
  return (
    <div className="md-codeblock" data-testid="code-block">
      <div className="md-codeblock-head">
        <span className="md-codeblock-lang">{language ?? 'text'}</span>
        <CopyButton text={code} testId="copy-code" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard */}
      <pre className="md-codeblock-body" tabIndex={0}>
        <HighlightedCode code={code} language={language} />
      </pre>
    </div>
  );
}
