/** Test-only: the attention list's counts (attention.ts) when nothing needs attention. */
import { ATTENTION_KINDS, type AttentionList } from '../attention.js';

export const NO_ATTENTION = Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, 0])) as AttentionList['counts'];
