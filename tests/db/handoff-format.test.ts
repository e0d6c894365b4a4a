// The open handoff format: the published JSON Schemas (served == committed, and they agree with
// what the API refuses and stores), the markdown write shape, export and import, and reserved keys.
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/handoffs/export/route";
import { POST as importRoute } from "@/app/api/handoffs/import/route";
import { GET as listRoute } from "@/app/api/handoffs/route";
import { GET as schemaRoute } from "@/app/api/handoffs/schema/route";
import { getDb } from "@/db/client";
import { currentActor } from "@/lib/auth/server";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { contentIdsFor } from "@/lib/handoff/content-id";
import { parseHandoffMarkdown, renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { writeHandoff } from "@/lib/handoff/write";
import { SCHEMA_NAMES } from "@/lib/handoff-api/json-schema";
import { CUT_NOTE } from "@/lib/handoff-api/markdown-body";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { guestHeaders } from "../support/auth";
import { sendTurn } from "../support/chat";
import { artifactOf, getHandoff, handoffTables, upsert, userWithToken } from "./handoff-support";
import {
  malformedWriteBodies,
  SERVER_ONLY_REFUSALS,
  storedWriteBodies,
} from "./handoff-write-bodies";

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});

const BASE = "http://localhost:3000";
const DOCS = path.resolve(import.meta.dirname, "../../docs/handoff-schema");
const uniqueKey = (label: string) => `${label}-${randomBytes(4).toString("hex")}`;
type Body = Record<string, unknown>;

async function read(response: Response): Promise<{ status: number; body: Body; text: string }> {
  const text = await response.text();
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    // Markdown answers are read as text.
  }
  return { status: response.status, body, text };
}

const get = (route: (r: Request) => Promise<Response>, url: string, headers: Headers) =>
  route(new Request(`${BASE}${url}`, { headers })).then(read);

async function importHandoff(headers: Headers, body: unknown) {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  const request = new Request(`${BASE}/api/handoffs/import`, {
    method: "POST",
    headers: h,
    body: JSON.stringify(body),
  });
  return read(await importRoute(request));
}

function committedSchemas(): Record<string, unknown> {
  const files = readdirSync(DOCS).filter((f) => f.endsWith(".json"));
  return Object.fromEntries(
    files.map((f) => [
      f.replace(/\.json$/, ""),
      JSON.parse(readFileSync(path.join(DOCS, f), "utf8")),
    ]),
  );
}

function validator(name: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(committedSchemas()[name] as object);
}

describe("published JSON Schemas", () => {
  it("the served schemas equal the ones committed in docs/handoff-schema", async () => {
    const { headers } = await userWithToken(["read"]);
    const served = await get(schemaRoute, "/api/handoffs/schema", headers);
    expect(served.status).toBe(200);
    const committed = committedSchemas();
    expect(Object.keys(committed).sort()).toEqual([...SCHEMA_NAMES].sort());
    expect(served.body).toEqual(committed);
    for (const name of SCHEMA_NAMES) {
      const one = await get(schemaRoute, `/api/handoffs/schema?name=${name}`, headers);
      expect(one.body).toEqual(committed[name]);
      expect(one.body.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    }
    expect((await get(schemaRoute, "/api/handoffs/schema?name=nope", headers)).status).toBe(400);
    expect((await get(schemaRoute, "/api/handoffs/schema", new Headers())).status).toBe(401);
  });

  it("the input schema rejects every body the API answers with 400", () => {
    const validate = validator("handoff.input");
    for (const [name, body] of malformedWriteBodies) {
      if (typeof body === "string") {
        // Not a JSON document at all: no schema applies, and JSON.parse refuses it.
        expect(() => JSON.parse(body), name).toThrow();
        continue;
      }
      expect(validate(body), name).toBe(!!SERVER_ONLY_REFUSALS.has(name));
    }
  });

  it("the one refusal the schema cannot express is named in its key description", () => {
    const schema = committedSchemas()["handoff.input"] as { anyOf: { properties: Body }[] };
    const key = schema.anyOf[0]?.properties.key as { description: string };
    expect(key.description).toMatch(/credential/);
  });

  it("the input schema accepts every body the API stores, and answers match the output schemas", async () => {
    const validate = validator("handoff.input");
    const record = validator("handoff.output");
    const artifact = validator("artifact.output");
    const artifactIn = validator("artifact.input");
    const { headers } = await userWithToken();
    for (const [name, body] of storedWriteBodies(uniqueKey)) {
      expect(validate(body), name).toBe(true);
      if (body.artifact) expect(artifactIn(body.artifact), name).toBe(true);
      const res = await upsert(headers, body);
      expect(res.status, name).toBe(201);
      expect(record(res.body), name).toBe(true);
      expect(artifact(res.body.artifact), name).toBe(true);
    }
  });
});

describe("the markdown write shape {handoff_key, project, repo, kind, body}", () => {
  it("stores card markdown as its artifact, and the stored markdown round-trips", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("card");
    const sent = handoffArtifactSchema.parse({
      goal: "Ship the exporter",
      state_summary: "JSON done\nMarkdown next",
      remaining_tasks: [{ id: "t1", task: "Write the docs" }],
      key_decisions: ["Oldest revision first"],
      must_preserve: ["Keys stay case-sensitive"],
    });
    const body = renderHandoffMarkdown(sent);
    const res = await upsert(headers, {
      handoff_key: key,
      project: "baton",
      repo: "acme/baton",
      kind: "task",
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key, revision: 1, project: "baton", repo: "acme/baton" });
    const stored = (await getHandoff(headers, key)).body;
    expect(stored.markdown).toBe(body);
    expect(stored.artifact).toEqual(sent);
    expect(parseHandoffMarkdown(stored.markdown as string)).toEqual(stored.artifact);
    // Sent again, it is the same handoff.
    const again = await upsert(headers, { handoff_key: key, project: "baton", body });
    expect([again.status, again.body.id]).toEqual([200, res.body.id]);
  });

  it("text that is not a card becomes the state summary, and the text is kept as the markdown", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("text");
    const body = "## Where I stopped\nThe backfill is at 40%.\n- check the cron job";
    const res = await upsert(headers, { handoff_key: key, project: null, repo: null, body });
    expect(res.status).toBe(201);
    const stored = (await getHandoff(headers, key)).body;
    expect(stored.markdown).toBe(body);
    expect(stored.artifact).toMatchObject({ goal: "Where I stopped", state_summary: body });
    expect(stored.kind).toBe("task");
  });

  it("a long text is cut to the field's limit with a note; the markdown keeps all of it", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("long");
    const body = `Notes\n${"the quick brown fox jumps over the lazy dog ".repeat(1000)}END`;
    const res = await upsert(headers, { handoff_key: key, body });
    expect(res.status).toBe(201);
    const stored = (await getHandoff(headers, key)).body;
    const summary = (stored.artifact as { state_summary: string }).state_summary;
    expect(summary).toHaveLength(20_000);
    expect(summary.endsWith(CUT_NOTE)).toBe(true);
    expect(body.startsWith(summary.slice(0, 20_000 - CUT_NOTE.length))).toBe(true);
    expect(stored.markdown).toBe(body);
  });

  it("a secret in a markdown body is masked in the artifact and in the kept markdown", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("secret");
    const secret = `sk-${"a1B2c3D4".repeat(4)}`;
    await upsert(headers, { handoff_key: key, body: `Use the key ${secret} for the staging API` });
    const stored = (await getHandoff(headers, key)).body;
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored.markdown).toMatch(/\[REDACTED:/);
  });
});

describe("export and import", () => {
  it("a thread's handoffs export as JSON and Markdown; imported under the same key and revision they keep their content id", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the harbour opens at six");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await sendTurn(actor, threadId, "todo book the ferry");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 2 });

    const json = await get(exportRoute, `/api/handoffs/export?key=${threadId}`, headers);
    expect(json.status).toBe(200);
    expect(validator("export.output")(json.body)).toBe(true);
    const revisions = json.body.handoffs as Body[];
    expect(revisions.map((r) => r.revision)).toEqual([1, 2]);
    expect(revisions.every((r) => r.key === threadId && r.kind === "session")).toBe(true);

    const md = await get(
      exportRoute,
      `/api/handoffs/export?key=${threadId}&revision=2&format=markdown`,
      headers,
    );
    expect(md.status).toBe(200);
    expect(md.text).toBe(revisions[1]?.markdown);
    const all = await get(
      exportRoute,
      `/api/handoffs/export?key=${threadId}&format=markdown`,
      headers,
    );
    expect(all.text).toContain(revisions[0]?.markdown as string);
    expect(all.text).toContain(revisions[1]?.markdown as string);

    // Another account (another instance, in effect) imports both ways.
    const other = await userWithToken();
    const fromJson = await importHandoff(other.headers, { format: "json", handoff: revisions[0] });
    expect(fromJson.status).toBe(201);
    expect(fromJson.body).toMatchObject({ key: threadId, revision: 1, id: revisions[0]?.id });
    expect(fromJson.body.artifact).toEqual(revisions[0]?.artifact);
    expect(fromJson.body.kind).toBe("task");
    expect(fromJson.body.thread_id).toBeNull();

    const fromMd = await importHandoff(other.headers, {
      format: "markdown",
      key: threadId,
      revision: 2,
      markdown: md.text,
    });
    expect(fromMd.status).toBe(201);
    expect(fromMd.body).toMatchObject({ key: threadId, revision: 2, id: revisions[1]?.id });
    // An import sent twice is one handoff.
    const again = await importHandoff(other.headers, { format: "json", handoff: revisions[1] });
    expect([again.status, again.body.id]).toEqual([200, revisions[1]?.id]);
  });

  it("refuses an import that does not parse or breaks a write rule with 400, storing nothing", async () => {
    const { headers } = await userWithToken();
    const stored = await upsert(headers, { key: uniqueKey("src"), artifact: artifactOf() });
    const exported = stored.body;
    const before = await handoffTables();
    const validate = validator("import.input");
    const bad: [string, unknown, number][] = [
      ["no format", { key: "k", markdown: "# Handoff: x" }, 400],
      ["markdown that is not a card", { format: "markdown", key: "k", markdown: "just text" }, 400],
      ["markdown without a key", { format: "markdown", markdown: "# Handoff: x" }, 400],
      ["json without a handoff", { format: "json", key: "k" }, 400],
      ["json with a reserved key", { format: "json", key: "schema", handoff: exported }, 400],
      [
        "json whose artifact misspells a field",
        {
          format: "json",
          handoff: { ...exported, artifact: { goal: "g", state_summary: "s", nxt: "" } },
        },
        400,
      ],
    ];
    for (const [name, body, status] of bad) {
      const res = await importHandoff(headers, body);
      expect(res.status, name).toBe(status);
      expect((res.body.error as { code: string }).code, name).toMatch(/^bad_request:/);
      // The schema agrees wherever a schema can tell (a card's grammar is the parser's).
      if (name !== "markdown that is not a card") expect(validate(body), name).toBe(false);
    }
    expect(await handoffTables()).toEqual(before);
    expect(
      (await get(exportRoute, `/api/handoffs/export?key=${uniqueKey("none")}`, headers)).status,
    ).toBe(404);
  });
});

describe("reserved keys", () => {
  it("a record stored under a word that is now a route stays readable and exportable by ?key=", async () => {
    const { userId, headers } = await userWithToken();
    const artifact = handoffArtifactSchema.parse(artifactOf({ goal: "written before the route" }));
    // Written as an older version would have: straight to storage, past today's key rule.
    await getDb().transaction((tx) =>
      writeHandoff(tx, {
        ownerId: userId,
        key: "schema",
        revision: 1,
        artifact,
        markdown: renderHandoffMarkdown(artifact),
        contentIdFor: contentIdsFor("schema", artifact),
        createdBy: `user:${userId}`,
        kind: "task",
        redactions: [],
      }),
    );
    const byKey = await get(listRoute, "/api/handoffs?key=schema", headers);
    expect(byKey.status).toBe(200);
    expect(byKey.body).toMatchObject({
      key: "schema",
      revision: 1,
      artifact: { goal: "written before the route" },
    });
    expect((await get(listRoute, "/api/handoffs?key=schema&revision=1", headers)).status).toBe(200);
    expect((await get(listRoute, "/api/handoffs?key=schema&revision=2", headers)).status).toBe(404);
    const exported = await get(exportRoute, "/api/handoffs/export?key=schema", headers);
    expect((exported.body.handoffs as Body[])[0]?.key).toBe("schema");
    // Another user's record under the same word is theirs alone.
    const other = await userWithToken();
    expect((await get(listRoute, "/api/handoffs?key=schema", other.headers)).status).toBe(404);
    // And the word cannot be written again.
    const res = await upsert(headers, { key: "schema", artifact: artifactOf() });
    expect(res.status).toBe(400);
  });
});
