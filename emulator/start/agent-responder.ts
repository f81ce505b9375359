import type { AgentResponder } from '../core/types';

/** Agents run on the hosted platform only; locally, the assistant says so instead of staying silent. */
export const defaultResponder: AgentResponder = ({ conversation }) => ({
  content:
    `This is the local platform emulator. The agent "${conversation.agent_name}" does not run here, ` +
    'so this is an automatic reply. Your message was stored.',
});
