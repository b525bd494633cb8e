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
      <pre className="md-codeblock-body">
        <HighlightedCode code={code} language={language} />
      </pre>
    </div>
  );
}
