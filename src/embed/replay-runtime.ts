/**
 * The replay code a playground needs only once its agent starts (the player, the recorder, the older
 * demo format's conversion): loaded with the agent, after the playground painted, so it is not part of
 * the page's first load.
 */
export { demoToReplay } from './demo-fetch.ts';
export { createReplayPlayer } from './replay-player.ts';
export { createReplayRecorder } from './replay-recorder.ts';
