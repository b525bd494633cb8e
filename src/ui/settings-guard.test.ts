import { describe, expect, it } from 'vitest';
import { keyNeedsConfirmation, originOf, savedListDiffers } from './settings-guard.ts';

describe('where a typed key may go', () => {
  it('asks before a key goes to the base URL an embedding page chose', () => {
    expect(keyNeedsConfirmation('sk-1', 'https://evil.example/v1/', 'https://evil.example/v1')).toBe(true);
    // Same origin, another path: still the host's server.
    expect(keyNeedsConfirmation('sk-1', 'https://evil.example/other', 'https://evil.example/v1')).toBe(true);
    // A relative host URL is this page's origin.
    expect(keyNeedsConfirmation('sk-1', '/proxy', '/proxy')).toBe(true);
  });

  it('does not ask without a key, without a host URL, or for a URL the user typed elsewhere', () => {
    expect(keyNeedsConfirmation('', 'https://evil.example', 'https://evil.example')).toBe(false);
    expect(keyNeedsConfirmation('  ', 'https://evil.example', 'https://evil.example')).toBe(false);
    expect(keyNeedsConfirmation('sk-1', 'https://api.anthropic.com', undefined)).toBe(false);
    expect(keyNeedsConfirmation('sk-1', 'https://api.anthropic.com', 'https://evil.example')).toBe(false);
  });

  it('names the origin a base URL sends to, and never throws on text that is no URL', () => {
    expect(originOf('https://api.anthropic.com/v1/', 'http://localhost:5173')).toBe(
      'https://api.anthropic.com',
    );
    expect(originOf('/api/anthropic', 'http://localhost:5173')).toBe('http://localhost:5173');
    expect(originOf('not a url', '')).toBe('not a url');
    expect(originOf('http://[::1', '')).toBe('http://[::1');
  });

  it('tells when the list shown is of other settings than those being edited', () => {
    const saved = { apiKey: 'sk-1', baseURL: 'https://api.anthropic.com' };
    expect(savedListDiffers({ apiKey: 'sk-1', baseURL: 'https://api.anthropic.com/' }, saved)).toBe(false);
    expect(savedListDiffers({ apiKey: 'sk-2', baseURL: 'https://api.anthropic.com' }, saved)).toBe(true);
    expect(savedListDiffers({ apiKey: 'sk-1', baseURL: 'https://proxy.example' }, saved)).toBe(true);
  });
});
