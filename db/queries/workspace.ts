import "server-only";
import { and, asc, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { WorkspaceError } from "@/core/workspace/errors";
import { MAX_FILES_PER_THREAD, utf8Bytes } from "@/core/workspace/limits";
import { TOOL_RESULTS_DIR } from "@/core/workspace/paths";
import { replaceExactlyOnce } from "@/core/workspace/text";
import type { Executor, Tx } from "../executor";
import { inOwnedThread, ownedThread } from "../owned";
import {
  threads,
  type WorkspaceFile,
  type WorkspaceFileKind,
  type WorkspaceFileOp,
  type WorkspaceFileVersion,
  workspaceFiles,
  workspaceFileVersionColumns,
  workspaceFileVersions,
} from "../schema";

// Per-thread workspace files and their history. Every query is scoped by the acting user through
// the thread's owner. Paths arrive normalized (core/workspace/paths); limits are enforced here,
// under the thread row lock, so concurrent writes cannot pass the file count together.

interface ThreadScope {
  userId: string;
  threadId: string;
}

/** Who made a change: recorded in the version row (files_modified reads it back). */
export interface ChangeOrigin {
  sessionId?: string | null;
  runId?: string | null;
  toolCallId?: string | null;
}

export type WorkspaceFileSummary = Pick<
  WorkspaceFile,
  "path" | "size" | "version" | "kind" | "updatedAt"
>;
export type WorkspaceVersionSummary = Pick<
  WorkspaceFileVersion,
  "version" | "op" | "size" | "sessionId" | "runId" | "toolCallId" | "createdAt"
>;

const ownedFile = (userId: string) => inOwnedThread(userId, workspaceFiles.threadId);

const ownedVersion = (userId: string) => inOwnedThread(userId, workspaceFileVersions.threadId);

/** Takes the thread row lock (the one message inserts and resets take) after checking the owner. */
async function lockOwnedThread(tx: Tx, { userId, threadId }: ThreadScope): Promise<void> {
  const [row] = await tx
    .select({ id: threads.id })
    .from(threads)
    .where(ownedThread(userId, threadId))
    .for("update");
  if (!row) throw new WorkspaceError("thread_not_found", "Thread not found.");
}

async function currentRow(tx: Executor, threadId: string, path: string) {
  const [row] = await tx
    .select()
    .from(workspaceFiles)
    .where(and(eq(workspaceFiles.threadId, threadId), eq(workspaceFiles.path, path)));
  return row ?? null;
}

export async function listFiles(
  db: Executor,
  {
    userId,
    threadId,
    prefix = "",
    kind = "file",
  }: ThreadScope & { prefix?: string; kind?: WorkspaceFileKind | "all" },
): Promise<WorkspaceFileSummary[]> {
  return db
    .select({
      path: workspaceFiles.path,
      size: workspaceFiles.size,
      version: workspaceFiles.version,
      kind: workspaceFiles.kind,
      updatedAt: workspaceFiles.updatedAt,
    })
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.threadId, threadId),
        isNull(workspaceFiles.deletedAt),
        kind === "all" ? undefined : eq(workspaceFiles.kind, kind),
        prefix ? sql`starts_with(${workspaceFiles.path}, ${prefix})` : undefined,
        ownedFile(userId),
      ),
    )
    .orderBy(asc(workspaceFiles.path));
}

/** Files counted against the per-thread limit: live ones, tool results excluded. */
export async function countFiles(db: Executor, { userId, threadId }: ThreadScope) {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.threadId, threadId),
        isNull(workspaceFiles.deletedAt),
        eq(workspaceFiles.kind, "file"),
        ownedFile(userId),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The current content of a live file, or null (missing, deleted, or not the user's thread). */
export async function readFile(
  db: Executor,
  { userId, threadId, path }: ThreadScope & { path: string },
): Promise<WorkspaceFile | null> {
  const [row] = await db
    .select()
    .from(workspaceFiles)
    .where(
      and(
        eq(workspaceFiles.threadId, threadId),
        eq(workspaceFiles.path, path),
        isNull(workspaceFiles.deletedAt),
        ownedFile(userId),
      ),
    );
  return row ?? null;
}

export async function readFileVersion(
  db: Executor,
  { userId, threadId, path, version }: ThreadScope & { path: string; version: number },
): Promise<WorkspaceFileVersion | null> {
  const [row] = await db
    .select(workspaceFileVersionColumns)
    .from(workspaceFileVersions)
    .where(
      and(
        eq(workspaceFileVersions.threadId, threadId),
        eq(workspaceFileVersions.path, path),
        eq(workspaceFileVersions.version, version),
        ownedVersion(userId),
      ),
    );
  return row ?? null;
}

/** A path's history, newest first (a deleted file's history included). */
export async function listFileVersions(
  db: Executor,
  { userId, threadId, path }: ThreadScope & { path: string },
): Promise<WorkspaceVersionSummary[]> {
  return db
    .select({
      version: workspaceFileVersions.version,
      op: workspaceFileVersions.op,
      size: workspaceFileVersions.size,
      sessionId: workspaceFileVersions.sessionId,
      runId: workspaceFileVersions.runId,
      toolCallId: workspaceFileVersions.toolCallId,
      createdAt: workspaceFileVersions.createdAt,
    })
    .from(workspaceFileVersions)
    .where(
      and(
        eq(workspaceFileVersions.threadId, threadId),
        eq(workspaceFileVersions.path, path),
        ownedVersion(userId),
      ),
    )
    .orderBy(desc(workspaceFileVersions.version));
}

async function storeVersion(
  tx: Tx,
  {
    threadId,
    path,
    content,
    kind,
    op,
    previous,
    origin,
  }: {
    threadId: string;
    path: string;
    content: string | null;
    kind: WorkspaceFileKind;
    op: WorkspaceFileOp;
    previous: WorkspaceFile | null;
    origin: ChangeOrigin;
  },
): Promise<WorkspaceFile> {
  const version = (previous?.version ?? 0) + 1;
  const size = content === null ? 0 : utf8Bytes(content);
  const now = new Date();
  await tx.insert(workspaceFileVersions).values({
    threadId,
    path,
    version,
    content,
    size,
    op,
    kind,
    sessionId: origin.sessionId ?? null,
    runId: origin.runId ?? null,
    toolCallId: origin.toolCallId ?? null,
    createdAt: now,
  });
  const values = {
    content: content ?? "",
    size,
    version,
    kind,
    deletedAt: content === null ? now : null,
    updatedAt: now,
  };
  const [row] = previous
    ? await tx
        .update(workspaceFiles)
        .set(values)
        .where(eq(workspaceFiles.id, previous.id))
        .returning()
    : await tx
        .insert(workspaceFiles)
        .values({ threadId, path, createdAt: now, ...values })
        .returning();
  if (!row) throw new Error(`workspace file row for ${path} was not stored`);
  return row;
}

/**
 * Writes a file (a new version; creates it when missing or deleted). Tool results
 * (`kind: "tool_result"`) do not count against the file limit. Size is checked by the caller.
 */
export async function writeFile(
  db: Executor,
  {
    userId,
    threadId,
    path,
    content,
    kind = "file",
    ...origin
  }: ThreadScope & ChangeOrigin & { path: string; content: string; kind?: WorkspaceFileKind },
): Promise<{ file: WorkspaceFile; created: boolean }> {
  return db.transaction(async (tx) => {
    await lockOwnedThread(tx, { userId, threadId });
    const previous = await currentRow(tx, threadId, path);
    const created = !previous || previous.deletedAt !== null;
    if (created && kind === "file") {
      const [row] = await tx
        .select({ n: count() })
        .from(workspaceFiles)
        .where(
          and(
            eq(workspaceFiles.threadId, threadId),
            isNull(workspaceFiles.deletedAt),
            eq(workspaceFiles.kind, "file"),
            ne(workspaceFiles.path, path),
          ),
        );
      if (Number(row?.n ?? 0) >= MAX_FILES_PER_THREAD) {
        throw new WorkspaceError(
          "too_many_files",
          `The workspace already holds ${MAX_FILES_PER_THREAD} files, the limit; delete or reuse one before creating "${path}".`,
        );
      }
    }
    const file = await storeVersion(tx, {
      threadId,
      path,
      content,
      kind,
      op: "write",
      previous,
      origin,
    });
    return { file, created };
  });
}

/** Replaces the one occurrence of `old`; zero or several occurrences is an error naming the count. */
export async function editFile(
  db: Executor,
  {
    userId,
    threadId,
    path,
    old,
    replacement,
    maxBytes,
    ...origin
  }: ThreadScope &
    ChangeOrigin & { path: string; old: string; replacement: string; maxBytes: number },
): Promise<WorkspaceFile> {
  return db.transaction(async (tx) => {
    await lockOwnedThread(tx, { userId, threadId });
    const previous = await currentRow(tx, threadId, path);
    if (!previous || previous.deletedAt !== null) {
      throw new WorkspaceError("file_not_found", `"${path}" does not exist.`);
    }
    const replaced = replaceExactlyOnce(previous.content, old, replacement);
    if (!replaced.ok) throw new WorkspaceError("match_count", replaced.error);
    const bytes = utf8Bytes(replaced.content);
    if (bytes > maxBytes) {
      throw new WorkspaceError(
        "too_large",
        `The edit would make "${path}" ${bytes} bytes; a file holds at most ${maxBytes} bytes.`,
      );
    }
    return storeVersion(tx, {
      threadId,
      path,
      content: replaced.content,
      kind: previous.kind,
      op: "edit",
      previous,
      origin,
    });
  });
}

/** Deletes a live file; its history (every earlier version) stays readable. */
export async function deleteFile(
  db: Executor,
  { userId, threadId, path, ...origin }: ThreadScope & ChangeOrigin & { path: string },
): Promise<WorkspaceFile> {
  return db.transaction(async (tx) => {
    await lockOwnedThread(tx, { userId, threadId });
    const previous = await currentRow(tx, threadId, path);
    if (!previous || previous.deletedAt !== null) {
      throw new WorkspaceError("file_not_found", `"${path}" does not exist.`);
    }
    return storeVersion(tx, {
      threadId,
      path,
      content: null,
      kind: previous.kind,
      op: "delete",
      previous,
      origin,
    });
  });
}

/**
 * Paths written, edited or deleted in one session — a handoff's `files_modified` — sorted.
 * Spilled tool results are not the agent's work and are left out.
 */
export async function listTouchedPaths(
  db: Executor,
  { userId, threadId, sessionId }: ThreadScope & { sessionId: string },
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ path: workspaceFileVersions.path })
    .from(workspaceFileVersions)
    .where(
      and(
        eq(workspaceFileVersions.threadId, threadId),
        eq(workspaceFileVersions.sessionId, sessionId),
        eq(workspaceFileVersions.kind, "file"),
        sql`not starts_with(${workspaceFileVersions.path}, ${TOOL_RESULTS_DIR})`,
        ownedVersion(userId),
      ),
    )
    .orderBy(asc(workspaceFileVersions.path));
  return rows.map((r) => r.path);
}
