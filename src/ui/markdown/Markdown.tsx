/**
 * Markdown from the model, rendered safely: `marked`'s lexer parses it into tokens and each token
 * becomes a React element. No HTML string is ever inserted, so raw HTML in model text shows as text,
 * links open only for http/https/mailto targets, and images are never loaded (shown as links).
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { createElement, memo, type ReactNode, useMemo } from 'react';
import { Lru } from '../lru.ts';
import { CodeBlock } from './CodeBlock.tsx';
import { decodeEntities, safeHref } from './safe.ts';

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const tokens = useMemo(() => lex(text), [text]);
  return <div className="md">{blocks(tokens, false)}</div>;
});

/**
 * Text that uses marked's block and inline rules. marked's regular expressions are compiled on their
 * first use, ~25 ms on the main thread in Chromium (measured on the preview build); lexing this once
 * when the page is idle keeps that cost out of the render of the first reply.
 */
const WARM_UP_TEXT =
  '# a\n\nb *c* **d** `e` [f](https://g) <i>h</i>\n\n- i\n1. j\n\n```js\nk\n```\n\n| l | m |\n| - | - |\n| n | o |\n\n> p\n\n---\n';
if (typeof requestIdleCallback === 'function') {
  requestIdleCallback(
    () => {
      try {
        new Lexer({ gfm: true, breaks: false }).lex(WARM_UP_TEXT);
      } catch {
        // A warm-up only: the first real text is lexed (and its errors handled) as always.
      }
    },
    { timeout: 5_000 },
  );
}

/** Lexed texts: a virtualized row that scrolls back into view is not lexed again. */
const lexed = new Lru<string, Token[]>(800);

function lex(text: string): Token[] {
  const cached = lexed.get(text);
  if (cached) return cached;
  try {
    const tokens = new Lexer({ gfm: true, breaks: false }).lex(text);
    lexed.set(text, tokens);
    return tokens;
  } catch {
    return [
      { type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] } as Tokens.Paragraph,
    ];
  }
}

function blocks(tokens: Token[], tight: boolean): ReactNode[] {
  return tokens.map((t, i) => block(t, i, tight));
}

function block(t: Token, key: number, tight: boolean): ReactNode {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return tight ? (
        <span key={key}>{inline((t as Tokens.Paragraph).tokens)}</span>
      ) : (
        <p key={key}>{inline((t as Tokens.Paragraph).tokens)}</p>
      );
    case 'heading': {
      const h = t as Tokens.Heading;
      return createElement(
        `h${Math.min(6, Math.max(1, h.depth))}`,
        { key, className: 'md-heading' },
        inline(h.tokens),
      );
    }
    case 'code': {
      const c = t as Tokens.Code;
      return <CodeBlock key={key} code={c.text} language={c.lang?.split(/\s/)[0] || undefined} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((t as Tokens.Blockquote).tokens, false)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const l = t as Tokens.List;
      const items = l.items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity beyond their position
        <li key={i} className={item.task ? 'md-task' : undefined}>
          {blocks(item.tokens, !l.loose)}
        </li>
      ));
      return l.ordered ? (
        <ol key={key} start={typeof l.start === 'number' && l.start !== 1 ? l.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const tb = t as Tokens.Table;
      const align = (i: number) => tb.align[i] ?? undefined;
      return (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
        <div key={key} className="md-table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                {tb.header.map((cell, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                  <th key={i} style={{ textAlign: align(i) }}>
                    {inline(cell.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tb.rows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
                <tr key={r}>
                  {row.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                    <td key={i} style={{ textAlign: align(i) }}>
                      {inline(cell.tokens)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'html':
      // Raw HTML is shown as the text the model wrote, never interpreted.
      return (
        <p key={key} className="md-raw">
          {(t as Tokens.HTML).raw}
        </p>
      );
    case 'text': {
      const tx = t as Tokens.Text;
      const content = tx.tokens ? inline(tx.tokens) : decodeEntities(tx.text);
      return tight ? <span key={key}>{content}</span> : <p key={key}>{content}</p>;
    }
    case 'checkbox':
      return <Checkbox key={key} checked={(t as Tokens.Checkbox).checked} />;
    default:
      return (
        <p key={key} className="md-raw">
          {t.raw}
        </p>
      );
  }
}

function Checkbox({ checked }: { checked: boolean }) {
  return <input type="checkbox" className="md-checkbox" checked={checked} disabled readOnly />;
}

function inline(tokens: Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((t, i) => inlineToken(t, i));
}

function inlineToken(t: Token, key: number): ReactNode {
  switch (t.type) {
    case 'text': {
      const tx = t as Tokens.Text;
      return tx.tokens ? <span key={key}>{inline(tx.tokens)}</span> : decodeEntities(tx.text);
    }
    case 'escape':
      return (t as Tokens.Escape).text;
    case 'strong':
      return <strong key={key}>{inline((t as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em key={key}>{inline((t as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del key={key}>{inline((t as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return (
        <code key={key} className="md-code">
          {(t as Tokens.Codespan).text}
        </code>
      );
    case 'br':
      return <br key={key} />;
    case 'link': {
      const l = t as Tokens.Link;
      return (
        <SafeLink key={key} href={l.href} title={l.title ?? undefined}>
          {inline(l.tokens)}
        </SafeLink>
      );
    }
    case 'image': {
      const im = t as Tokens.Image;
      return (
        <SafeLink key={key} href={im.href} title={im.title ?? undefined}>
          <span className="md-image">🖼 {decodeEntities(im.text) || 'image'}</span>
        </SafeLink>
      );
    }
    case 'html':
      return (
        <span key={key} className="md-raw">
          {(t as Tokens.Tag).raw}
        </span>
      );
    case 'checkbox':
      return <Checkbox key={key} checked={(t as Tokens.Checkbox).checked} />;
    default:
      return t.raw;
  }
}

/** A link that opens in a new tab, or plain text when its target is not allowed. */
function SafeLink({ href, title, children }: { href: string; title?: string; children: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) {
    return (
      <span
        className="md-link-blocked"
        data-testid="blocked-link"
        title="Not a link: only http, https and mailto links open"
      >
        {children}
      </span>
    );
  }
  return (
    <a
      href={safe}
      title={title ? decodeEntities(title) : safe}
      target="_blank"
      rel="noopener noreferrer nofollow"
    >
      {children}
    </a>
  );
}
