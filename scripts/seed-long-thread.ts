// Seeds one account with a long thread (N messages across S sessions, each later session
// started from a stored handoff) for the long-thread e2e and the list benchmark. Run it before
// the server starts on the same data folder (PGlite admits one process):
//   npx tsx --conditions=react-server scripts/seed-long-thread.ts --messages 10000 --sessions 8 --out seed.json
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { hashPassword } from "better-auth/crypto";
import { serverEnv } from "@/core/env";
import { dataDir, getDatabase, getDb } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { authAccounts, messages, sessions, threads, users } from "@/db/schema";
import { lockFolderOrExit } from "@/db/server-lock";
import { HANDOFF_SCHEMA_VERSION, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { contentId } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { writeHandoff } from "@/lib/handoff/write";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "10000" },
    sessions: { type: "string", default: "8" },
    email: { type: "string", default: "" },
    password: { type: "string", default: "long thread password" },
    out: { type: "string" },
  },
});
const total = Number(values.messages);
const sessionCount = Number(values.sessions);
const email = values.email || `long-${randomUUID().slice(0, 8)}@example.test`;

// The same folder lock as the server's: a live server's folder is refused, not written beside it.
const lock = serverEnv().DATABASE_URL
  ? null
  : await lockFolderOrExit(path.join(dataDir(), "pglite"), "Seed before the server starts.");
const handle = getDatabase();
await migrateDatabase(handle);
const db = getDb();

const userId = randomUUID();
const now = Date.now();
await db
  .insert(users)
  .values({ id: userId, name: "Long thread", email, emailVerified: false, isAnonymous: false });
await db.insert(authAccounts).values({
  id: randomUUID(),
  accountId: userId,
  providerId: "credential",
  userId,
  password: await hashPassword(values.password),
});

const threadId = randomUUID();
await db.insert(threads).values({
  id: threadId,
  userId,
  title: `A long thread (${total.toLocaleString("en")} messages)`,
  model: "baton/local",
  nextSeq: total + 1,
  createdAt: new Date(now - total * 60_000),
  updatedAt: new Date(now),
});

const perSession = Math.ceil(total / sessionCount);
let seq = 1;
for (let n = 1; n <= sessionCount; n++) {
  let handoffRevisionId: string | null = null;
  if (n > 1) {
    const artifact = handoffArtifactSchema.parse({
      goal: "Keep a very long conversation going",
      state_summary: `Session ${n - 1} covered messages up to ${seq - 1}.`,
      completed_work: [`Discussed messages ${seq - perSession} to ${seq - 1}`],
      in_progress: [`Reviewing part ${n}`],
      remaining_tasks: [{ id: `t${n}`, task: `Finish part ${n}` }],
      key_decisions: [`Decision made in session ${n - 1}`],
      confirmed_facts: [`Session ${n - 1} had ${perSession} messages`],
      unknowns: [`What part ${n + 1} will need`],
      must_preserve: ["The thread is seeded for tests"],
      files_modified: [`docs/part-${n - 1}.md`],
      next_step: `Continue with part ${n}`,
      needs_authorization: [],
    });
    const revision = n - 1;
    const written = await db.transaction((tx) =>
      writeHandoff(tx, {
        ownerId: userId,
        key: threadId,
        revision,
        artifact,
        markdown: renderHandoffMarkdown(artifact),
        contentIdFor: (r) =>
          contentId({
            schema_version: HANDOFF_SCHEMA_VERSION,
            handoff_key: threadId,
            revision: r,
            artifact,
          }),
        createdBy: "seed",
        threadId,
        sessionNumber: revision,
        model: "baton/local",
        profile: "default",
        redactions: [],
      }),
    );
    handoffRevisionId = written.revision.id;
  }
  const [session] = await db
    .insert(sessions)
    .values({
      threadId,
      number: n,
      model: "baton/local",
      trigger: n === 1 ? "initial" : "threshold",
      handoffRevisionId,
      startedAt: new Date(now - (total - seq) * 60_000),
      endedAt: n < sessionCount ? new Date(now - (total - seq - perSession) * 60_000) : null,
      // The session's last turn reported its input, as every answered turn does: reading the
      // context meter then sums only what came after it, not the whole session.
      lastInputTokens: (Math.min(total, seq + perSession - 1) - seq + 1) * 20,
      lastInputSeq: Math.min(total, seq + perSession - 1),
    })
    .returning();
  if (!session) throw new Error("session insert failed");
  const rows = [];
  const last = Math.min(total, seq + perSession - 1);
  for (; seq <= last; seq++) {
    const user = seq % 2 === 1;
    const text = user
      ? `Message ${seq}: a question about part ${n} of the work.`
      : `Message ${seq}: an answer about part ${n}, with a little more text so that rows have ${
          seq % 3 === 0 ? "two lines of content in a narrow window and wrap" : "varied heights"
        }.`;
    rows.push({
      threadId,
      id: `seed-${seq}`,
      sessionId: session.id,
      seq,
      role: (user ? "user" : "assistant") as "user" | "assistant",
      parts: [{ type: "text", text }],
      status: "complete" as const,
      model: user ? null : "baton/local",
      tokenCount: 20,
      createdAt: new Date(now - (total - seq) * 60_000),
    });
    if (rows.length === 1000) await db.insert(messages).values(rows.splice(0));
  }
  if (rows.length > 0) await db.insert(messages).values(rows);
}

const summary = {
  email,
  password: values.password,
  threadId,
  messages: total,
  sessions: sessionCount,
};
if (values.out) writeFileSync(values.out, JSON.stringify(summary, null, 2));
console.log(JSON.stringify(summary));
await handle.close();
lock?.release();
