/** The hash of everything the agent's build is made of (source-hash.mjs). */
export function agentSourceHash(): string;
