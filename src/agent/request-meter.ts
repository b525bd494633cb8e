/**
 * The fetch every model request of a session passes through: it tells the page the size of each
 * request body by part (for the usage meter) and the wait of each retry the SDK will make.
 */
import { MODEL_MAX_RETRIES } from '../core/constants.ts';
import { errorOfStatus, headerOf, plannedRetryDelay } from './retry-wait.ts';
import type { RequestSizes, SessionEvent } from './types.ts';

/** Sizes of a Messages API request body by part, or undefined for any other body. Never throws. */
export function requestSizes(body: unknown): RequestSizes | undefined {
  if (typeof body !== 'string' || !body.includes('"messages"')) return undefined;
  try {
    const parsed = JSON.parse(body) as { tools?: unknown; system?: unknown; messages?: unknown };
    if (!Array.isArray(parsed.messages)) return undefined;
    const size = (v: unknown) => (v === undefined ? 0 : JSON.stringify(v).length);
    return {
      toolsChars: size(parsed.tools),
      systemChars: size(parsed.system),
      messagesChars: size(parsed.messages),
    };
  } catch {
    return undefined;
  }
}

/**
 * `baseFetch` wrapped: a Messages API request emits `request-sent` with its sizes, and a failure the SDK
 * will retry emits `retry-wait` with the planned delay (for the page's countdown). Other requests pass
 * untouched. Rejects only as `baseFetch` does.
 */
export function createMeasuringFetch(
  baseFetch: typeof fetch,
  emit: (event: SessionEvent) => void,
): typeof fetch {
  return async (input, init) => {
    const sizes = requestSizes(init?.body);
    if (!sizes) return baseFetch(input, init);
    emit({ type: 'request-sent', sizes });
    const retryCount = Number(headerOf(init?.headers, 'x-stainless-retry-count') ?? 0) || 0;
    const announce = (status: number | undefined, headers?: Headers) => {
      const delayMs = plannedRetryDelay({ status, headers, retryCount });
      if (delayMs === undefined) return;
      emit({
        type: 'retry-wait',
        attempt: retryCount + 1,
        maxRetries: MODEL_MAX_RETRIES,
        delayMs,
        error: errorOfStatus(status),
      });
    };
    try {
      const response = await baseFetch(input, init);
      if (!response.ok) announce(response.status, response.headers);
      return response;
    } catch (err) {
      if (!init?.signal?.aborted) announce(undefined);
      throw err;
    }
  };
}
