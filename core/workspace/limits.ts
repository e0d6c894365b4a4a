// The workspace's size limits and the large-result thresholds, in one place. Sizes are UTF-8
// bytes (what is stored and what a provider is sent), paths are counted in characters.

/** Longest path, in characters, after normalization. */
export const MAX_PATH_CHARS = 256;
/** Files per thread; spilled tool results under `.baton/results/` are not counted. */
export const MAX_FILES_PER_THREAD = 1000;
/** Largest file: 256 KiB of UTF-8. A spilled tool result is cut to this size too. */
export const MAX_FILE_BYTES = 256 * 1024;

/** A tool result larger than this (serialized) is spilled to a file instead of sent whole. */
export const SPILL_THRESHOLD_BYTES = 8 * 1024;
/** How much of a spilled result the model still sees inline. */
export const SPILL_PREVIEW_BYTES = 2 * 1024;
/**
 * read_file's budget for the numbered lines it returns. Below the spill threshold so a read —
 * of a spill file above all — is never spilled again.
 */
export const READ_MAX_BYTES = 6 * 1024;
/** What read_file shows of a large file when no line range is given. */
export const READ_PREVIEW_BYTES = 2 * 1024;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** The longest prefix of text within maxBytes, never splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** An error message for content over the file limit, or null when it fits. */
export function contentSizeError(content: string): string | null {
  const bytes = utf8Bytes(content);
  if (bytes <= MAX_FILE_BYTES) return null;
  return `The content is ${bytes} bytes; a file holds at most ${MAX_FILE_BYTES} bytes (256 KiB). Split it into several files.`;
}
