// Calibrated estimates: a provider's tokenizer counts the same prompt differently from the local
// estimate (lib/ai/token-count.ts), so every model call that reports its input teaches a ratio,
// reported ÷ estimated, that scales what is estimated until the next report. Pure: the session's
// ratio is stored with the session, the per-family prior lives in calibration-prior.ts.

/** A ratio outside this range is a broken report or estimate, not a tokenizer difference. */
export const RATIO_MIN = 0.5;
export const RATIO_MAX = 2.5;
/** How much one new call moves the learned ratio (exponentially weighted moving average). */
const RATIO_WEIGHT = 0.3;
/**
 * Calls whose prompt is estimated below this many tokens teach nothing: fixed framing the
 * estimate does not model dominates them.
 */
export const MIN_SAMPLE_TOKENS = 64;

/** One model call: what the provider reported as its input, and the local estimate of it. */
export interface CallSample {
  reported: number;
  estimated: number;
}

export function clampRatio(ratio: number): number {
  return Math.min(RATIO_MAX, Math.max(RATIO_MIN, ratio));
}

/** The ratio a call shows, or null when it cannot teach one (no usage, a tiny prompt). */
export function sampleRatio(sample: CallSample): number | null {
  const { reported, estimated } = sample;
  if (!Number.isFinite(reported) || !Number.isFinite(estimated)) return null;
  if (reported <= 0 || estimated < MIN_SAMPLE_TOKENS) return null;
  return clampRatio(reported / estimated);
}

/**
 * The learned ratio after one more call: the call's own ratio when nothing was learned yet,
 * otherwise the moving average. A call that teaches nothing leaves it as it was.
 */
export function nextRatio(current: number | null, sample: CallSample): number | null {
  const observed = sampleRatio(sample);
  if (observed === null) return current;
  if (current === null) return observed;
  return clampRatio(current + RATIO_WEIGHT * (observed - current));
}

/** A local estimate scaled by the ratio (1 when none is known). */
export function calibrated(estimate: number, ratio: number | null | undefined): number {
  if (ratio === null || ratio === undefined || ratio === 1) return estimate;
  return Math.ceil(estimate * clampRatio(ratio));
}

/**
 * The family a model's ratio is shared with: the provider and the model name's leading word with
 * its version, when the version follows the word (`anthropic:claude-sonnet-4-5` →
 * `anthropic:claude`, `openai:gpt-4.1-mini` → `openai:gpt-4.1`, `compatible:qwen2.5-coder` →
 * `compatible:qwen2.5`); a name of another shape is its own family. Models of one family share a
 * tokenizer, or nearly.
 */
export function modelFamily(modelId: string): string {
  const colon = modelId.indexOf(":");
  const provider = colon > 0 ? modelId.slice(0, colon).toLowerCase() : "";
  const name = (colon > 0 ? modelId.slice(colon + 1) : modelId).toLowerCase();
  const lead = /^[a-z]+(?:-?\d+(?:\.\d+)?[a-z]?)?(?=$|[-:_ ])/.exec(name)?.[0] || name;
  return provider ? `${provider}:${lead}` : lead;
}

/** In-process priors per family: what a session uses before its own first report. */
export class FamilyPriors {
  private readonly ratios = new Map<string, number>();

  get(family: string): number | undefined {
    return this.ratios.get(family);
  }

  has(family: string): boolean {
    return this.ratios.has(family);
  }

  /** Seeds a family from stored sessions' ratios (their mean), unless calls already taught it. */
  seed(family: string, ratios: readonly number[]): void {
    if (this.ratios.has(family) || ratios.length === 0) return;
    const mean = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
    this.ratios.set(family, clampRatio(mean));
  }

  /** One more call of the family. */
  observe(family: string, sample: CallSample): void {
    const next = nextRatio(this.ratios.get(family) ?? null, sample);
    if (next !== null) this.ratios.set(family, next);
  }

  clear(): void {
    this.ratios.clear();
  }
}
