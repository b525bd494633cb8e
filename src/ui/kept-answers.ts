/**
 * Answers given to AskUserQuestion, kept in the tab the moment they are sent: the tool result that
 * carries them is saved with the session a frame later, and a reload in between would lose what the user
 * chose (the card then said "Answers sent." and came back interrupted). A restored session gives them to
 * the model (session-model.ts restoreRecord). Never throws.
 */
import { readTabValue, writeTabValue } from './tab-session.ts';

const KEY = 'ask-answers';
/** Calls whose answers are kept (the newest). */
const MAX_KEPT = 20;

export type KeptAnswers = Readonly<Record<string, Readonly<Record<string, string>>>>;

export function readKeptAnswers(): KeptAnswers {
  try {
    const parsed = JSON.parse(readTabValue(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as KeptAnswers) : {};
  } catch {
    return {};
  }
}

/** Keeps the answers (question → answer) sent to the call `toolUseId`. */
export function keepAnswers(toolUseId: string, answers: Record<string, string>): void {
  const entries = Object.entries({ ...readKeptAnswers(), [toolUseId]: answers }).slice(-MAX_KEPT);
  writeTabValue(KEY, JSON.stringify(Object.fromEntries(entries)));
}
