/**
 * The worker model requests are sent from (off-thread-fetch.ts): the page hands it the request body, it
 * makes the request with its own fetch and streams the response back.
 */
import { type FetchScope, serveFetches } from './off-thread-fetch.ts';

serveFetches(self as unknown as FetchScope, (input, init) => fetch(input, init));
