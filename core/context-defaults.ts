// The default context thresholds, as fractions of a model's window. The environment module reads
// them as the defaults of BATON_RESET_THRESHOLD / BATON_COMPACT_THRESHOLD, and the context policy
// (lib/context/policy.ts) as the defaults of a profile's thresholds; docs/context-engine.md says
// what each one does.
export const DEFAULT_RESET_THRESHOLD = 0.8;
export const DEFAULT_COMPACT_THRESHOLD = 0.5;
