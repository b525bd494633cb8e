/**
 * The prompt a waiting tool card shows: AskUserQuestion's questions, ExitPlanMode's plan approval, or the
 * permission prompt for every other call (sub-agents' included).
 */
import { useCallback } from 'react';
import type { AgentSession } from '../agent/types.ts';
import { AskUserQuestionCard } from './AskUserQuestionCard.tsx';
import { usePermissionSlot } from './PermissionPrompt.tsx';
import { PlanApproval } from './PlanApproval.tsx';
import type { PermissionSlot } from './ToolCard.tsx';

export function useToolPromptSlot(session: AgentSession | null | undefined): PermissionSlot {
  const permission = usePermissionSlot(session);
  return useCallback<PermissionSlot>(
    ({ card }) => {
      if (card.name === 'AskUserQuestion') return <AskUserQuestionCard key={card.toolUseId} card={card} />;
      if (card.name === 'ExitPlanMode') return <PlanApproval key={card.toolUseId} card={card} />;
      return permission({ card });
    },
    [permission],
  );
}
