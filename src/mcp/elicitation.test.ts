/**
 * Elicitation forms: the requested schema → fields with defaults (SEP-1034), enums with titles and
 * multi-select (SEP-1330), and the user's input checked against the schema before it is sent.
 */
import { describe, expect, it } from 'vitest';
import { PROFILE_SCHEMA } from '../../e2e/mcp/rich-server.ts';
import { elicitationContent, elicitationFields, initialValues } from './elicitation.ts';

describe('elicitation forms', () => {
  it('builds fields from the schema with every default applied', () => {
    const fields = elicitationFields(PROFILE_SCHEMA);
    expect(fields?.map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ['name', 'text', 'Your name', true],
      ['age', 'number', 'age', false],
      ['email', 'text', 'email', true],
      ['plan', 'choice', 'plan', false],
      ['subscribe', 'boolean', 'subscribe', false],
    ]);
    expect(fields?.[3]).toMatchObject({
      options: [
        { value: 'free', label: 'Free' },
        { value: 'pro', label: 'Pro' },
      ],
    });
    const values = initialValues(fields ?? []);
    expect(values).toEqual({ name: 'Ada', age: '36', email: '', plan: 'free', subscribe: true });
    // Accepting as shown fails only on the required field that has no default.
    expect(elicitationContent(fields ?? [], values)).toEqual({ errors: { email: 'is required' } });
    expect(elicitationContent(fields ?? [], { ...values, email: 'ada@example.com' })).toEqual({
      content: { name: 'Ada', age: 36, email: 'ada@example.com', plan: 'free', subscribe: true },
    });
  });

  it('checks types, ranges, lengths, formats and choices', () => {
    const fields = elicitationFields({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 5 },
        x: { type: 'number' },
        s: { type: 'string', minLength: 2, maxLength: 3 },
        u: { type: 'string', format: 'uri' },
        d: { type: 'string', format: 'date' },
        c: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'Alpha' },
            { const: 'b', title: 'Beta' },
          ],
        },
        m: { type: 'array', items: { anyOf: [{ const: 'r' }, { const: 'g' }] }, minItems: 1, maxItems: 1 },
      },
    });
    expect(fields).not.toBeNull();
    const bad = elicitationContent(fields ?? [], {
      n: '2.5',
      x: 'ten',
      s: 'abcd',
      u: 'not a url',
      d: '2024-13-45',
      c: 'z',
      m: ['r', 'g'],
    });
    expect(bad).toEqual({
      errors: {
        n: 'must be a whole number',
        x: 'must be a number',
        s: 'must be at most 3 characters',
        u: 'must be a URL',
        d: 'must be a date (YYYY-MM-DD)',
        c: 'must be one of the choices',
        m: 'choose at most 1',
      },
    });
    expect(
      elicitationContent(fields ?? [], { n: '6', x: '', s: 'ab', u: '', d: '', c: 'b', m: ['g'] }),
    ).toEqual({
      errors: { n: 'must be at most 5' },
    });
    expect(
      elicitationContent(fields ?? [], {
        n: '5',
        x: '-1.5',
        s: 'ab',
        u: 'https://x.y',
        d: '2024-02-29',
        c: 'b',
        m: ['g'],
      }),
    ).toEqual({
      content: { n: 5, x: -1.5, s: 'ab', u: 'https://x.y', d: '2024-02-29', c: 'b', m: ['g'] },
    });
  });

  it('refuses schemas that are not the restricted form schema', () => {
    expect(elicitationFields(null)).toBeNull();
    expect(elicitationFields({ type: 'array' })).toBeNull();
    expect(elicitationFields({ type: 'object', properties: { o: { type: 'object' } } })).toBeNull();
    expect(
      elicitationFields({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }),
    ).toBeNull();
    expect(elicitationFields({ type: 'object', properties: {} })).toEqual([]);
  });
});
