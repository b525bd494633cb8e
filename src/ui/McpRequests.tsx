/**
 * What MCP servers ask the user, shown in the transcript column above the prompt box: an elicitation
 * form built from the requested schema (defaults filled in; Accept sends the checked values, Decline
 * and Cancel say so), and sampling requests (the server wants tabcode's model to write something:
 * Approve runs that one request on the session's model, Decline refuses it). Everything a server sent
 * is shown as text. Standalone: give it the session's McpManager.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import {
  type ElicitField,
  type ElicitValues,
  elicitationContent,
  initialValues,
} from '../mcp/elicitation.ts';
import type { McpInteraction } from '../mcp/interactions.ts';
import type { McpManager } from '../mcp/manager.ts';
import './mcp.css';

/** The manager's pending requests, kept in sync with its changes. */
function useInteractions(manager: McpManager | null | undefined): McpInteraction[] {
  const [list, setList] = useState<McpInteraction[]>(() => manager?.interactions() ?? []);
  useEffect(() => {
    if (!manager) {
      setList([]);
      return;
    }
    setList(manager.interactions());
    return manager.onChange(() => setList(manager.interactions()));
  }, [manager]);
  return list;
}

function FieldInput({
  field,
  value,
  onChange,
  id,
}: {
  field: ElicitField;
  value: ElicitValues[string];
  onChange: (v: ElicitValues[string]) => void;
  id: string;
}) {
  switch (field.kind) {
    case 'boolean':
      return (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case 'choice':
      return (
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {!field.required && <option value="">—</option>}
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <span className="mcp-form-multi" id={id}>
          {field.options.map((o) => (
            <label key={o.value}>
              <input
                type="checkbox"
                checked={chosen.includes(o.value)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((x) => x !== o.value))
                }
              />{' '}
              {o.label}
            </label>
          ))}
        </span>
      );
    }
    case 'number':
      return (
        <input
          id={id}
          type="number"
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <input
          id={id}
          type={
            field.format === 'email'
              ? 'email'
              : field.format === 'uri'
                ? 'url'
                : field.format === 'date'
                  ? 'date'
                  : 'text'
          }
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

/** One elicitation form. */
export function ElicitationForm({
  ask,
  onAnswer,
}: {
  ask: Extract<McpInteraction, { kind: 'elicitation' }>;
  onAnswer: (answer: Parameters<McpManager['answer']>[1]) => void;
}) {
  const [values, setValues] = useState<ElicitValues>(() => initialValues(ask.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const base = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const out = elicitationContent(ask.fields, values);
    if ('errors' in out) setErrors(out.errors);
    else onAnswer({ action: 'accept', content: out.content });
  };
  return (
    <form className="mcp-request" data-testid="mcp-elicitation" data-server={ask.server} onSubmit={submit}>
      <div className="mcp-request-head">
        <span className="mcp-request-from">{ask.server}</span> asks:
      </div>
      <p className="mcp-request-message mcp-pre">{ask.message}</p>
      {ask.fields.map((f) => (
        <div key={f.name} className="mcp-form-field">
          <label htmlFor={`${base}-${f.name}`}>
            {f.label}
            {f.required && <span aria-hidden="true"> *</span>}
          </label>
          <FieldInput
            field={f}
            id={`${base}-${f.name}`}
            value={values[f.name]}
            onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          />
          {f.description && <span className="mcp-form-help muted">{f.description}</span>}
          {errors[f.name] && (
            <span className="mcp-form-error" role="alert" data-testid="mcp-elicitation-error">
              {f.label} {errors[f.name]}
            </span>
          )}
        </div>
      ))}
      <div className="mcp-request-actions">
        <button type="submit" className="btn btn-small btn-primary" data-testid="mcp-elicitation-accept">
          Accept
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="mcp-elicitation-decline"
          onClick={() => onAnswer({ action: 'decline' })}
        >
          Decline
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="mcp-elicitation-cancel"
          onClick={() => onAnswer({ action: 'cancel' })}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One sampling request: what the server wants the model to read, and Approve / Decline. */
export function SamplingRequest({
  ask,
  onAnswer,
}: {
  ask: Extract<McpInteraction, { kind: 'sampling' }>;
  onAnswer: (answer: Parameters<McpManager['answer']>[1]) => void;
}) {
  return (
    <div className="mcp-request" data-testid="mcp-sampling" data-server={ask.server}>
      <div className="mcp-request-head">
        <span className="mcp-request-from">{ask.server}</span> wants the model to answer this (up to{' '}
        {ask.summary.maxTokens} tokens, billed to your key):
      </div>
      {ask.summary.systemPrompt && <p className="mcp-pre muted">{ask.summary.systemPrompt}</p>}
      {ask.summary.messages.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one request never change
        <p key={i} className="mcp-pre">
          <b>{m.role}:</b> {m.text}
        </p>
      ))}
      <div className="mcp-request-actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          data-testid="mcp-sampling-approve"
          onClick={() => onAnswer({ action: 'approve' })}
        >
          Approve
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="mcp-sampling-decline"
          onClick={() => onAnswer({ action: 'decline' })}
        >
          Decline
        </button>
      </div>
    </div>
  );
}

/** Every pending request of the session's MCP servers, oldest first. */
export function McpRequests({ manager }: { manager: McpManager | null | undefined }) {
  const list = useInteractions(manager);
  if (!manager || list.length === 0) return null;
  return (
    <div className="mcp-requests" data-testid="mcp-requests">
      {list.map((ask) =>
        ask.kind === 'elicitation' ? (
          <ElicitationForm key={ask.id} ask={ask} onAnswer={(a) => manager.answer(ask.id, a)} />
        ) : (
          <SamplingRequest key={ask.id} ask={ask} onAnswer={(a) => manager.answer(ask.id, a)} />
        ),
      )}
    </div>
  );
}
