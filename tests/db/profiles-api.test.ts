// Agent profiles over /api/profiles with real guest sessions: bad bodies are 400s with field
// errors that store nothing; the built-in agent is read-only; profiles are the owner's alone.
import { describe, expect, it } from "vitest";
import { signedIn, writer } from "../support/profiles";
import { dbHashes } from "../support/route-call";

describe("POST /api/profiles refuses bad bodies with field errors and stores nothing", () => {
  const long = (n: number) => "x".repeat(n);
  const cases: [string, unknown, string][] = [
    ["no slug", { name: "A", systemPrompt: "p" }, "id"],
    ["an uppercase slug", { ...writer, id: "Writer" }, "id"],
    ["a slug starting with a digit", { ...writer, id: "1writer" }, "id"],
    ["a slug of 41 characters", { ...writer, id: `w${long(40)}` }, "id"],
    ["the built-in slug", { ...writer, id: "default" }, "id"],
    ["a blank name", { ...writer, name: "   " }, "name"],
    ["a name of 81 characters", { ...writer, name: long(81) }, "name"],
    ["a description of 501 characters", { ...writer, description: long(501) }, "description"],
    ["no system prompt", { id: "writer", name: "Writer" }, "systemPrompt"],
    ["an empty system prompt", { ...writer, systemPrompt: "" }, "systemPrompt"],
    ["a system prompt of 20,001", { ...writer, systemPrompt: long(20_001) }, "systemPrompt"],
    ["an unconfigured model", { ...writer, model: "openai:no-such-model" }, "model"],
    ["a model that is not a string", { ...writer, model: 7 }, "model"],
    ["an unknown strategy", { ...writer, contextStrategy: "sometimes" }, "contextStrategy"],
    ["a reset threshold above 1", { ...writer, resetThreshold: 1.5 }, "resetThreshold"],
    ["a compact threshold of 0", { ...writer, compactThreshold: 0 }, "compactThreshold"],
    [
      "compact above reset",
      { ...writer, resetThreshold: 0.6, compactThreshold: 0.7 },
      "compactThreshold",
    ],
    ["0 steps", { ...writer, maxSteps: 0 }, "maxSteps"],
    ["201 steps", { ...writer, maxSteps: 201 }, "maxSteps"],
    ["a fraction of a step", { ...writer, maxSteps: 2.5 }, "maxSteps"],
    ["a brief share of 0", { ...writer, briefShare: 0 }, "briefShare"],
    ["a brief share above 1", { ...writer, briefShare: 1.5 }, "briefShare"],
    ["an unknown tool", { ...writer, tools: { allow: ["read_file", "rm_rf"] } }, "tools.allow.1"],
    [
      "a malformed MCP tool",
      { ...writer, tools: { allow: ["mcp:demo/*", "mcp:Demo/echo"] } },
      "tools.allow.1",
    ],
    [
      "an MCP server without a tool",
      { ...writer, tools: { allow: ["mcp:demo"] } },
      "tools.allow.0",
    ],
    ["tools as a bare list", { ...writer, tools: ["read_file"] }, "tools"],
    ["an unknown key in tools", { ...writer, tools: { allow: [], deny: [] } }, "tools.deny"],
    [
      "a handoff depth of 11",
      { ...writer, delegation: { maxHandoffDepth: 11 } },
      "delegation.maxHandoffDepth",
    ],
    [
      "callers that are neither * nor a list",
      { ...writer, delegation: { allowedCallers: "any" } },
      "delegation.allowedCallers",
    ],
    [
      "a caller that is not a slug",
      { ...writer, delegation: { allowedCallers: ["default", "Not A Slug"] } },
      "delegation.allowedCallers.1",
    ],
    [
      "an unknown delegation key",
      { ...writer, delegation: { canCall: true } },
      "delegation.canCall",
    ],
    ["an unknown key", { ...writer, temperature: 0.2 }, "temperature"],
    ["a list instead of an object", [writer], "(body)"],
  ];

  it.each(cases)("%s", async (_label, body, field) => {
    const { api } = await signedIn();
    const before = await dbHashes();
    const res = await api.create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request:body");
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect(await dbHashes()).toEqual(before);
    expect((await api.list()).body.profiles.map((p: { id: string }) => p.id)).toEqual(["default"]);
  });

  it("a body that is not JSON is a 400 that stores nothing", async () => {
    const { api } = await signedIn();
    const before = await dbHashes();
    const res = await api.create("{not json");
    expect(res.status).toBe(400);
    expect(await dbHashes()).toEqual(before);
  });
});

describe("profiles: create, list, get, patch, delete", () => {
  it("creates a profile with the documented defaults and returns exactly its public fields", async () => {
    const { api } = await signedIn();
    const created = await api.create({ ...writer, name: "  Writer  " });
    expect(created.status).toBe(201);
    expect(created.body.profile).toMatchObject({
      id: "writer",
      name: "Writer",
      description: "",
      systemPrompt: "You write clear prose.",
      model: null,
      contextStrategy: "auto",
      resetThreshold: 0.8,
      compactThreshold: 0.5,
      maxSteps: 25,
      briefShare: 0.2,
      reviewResets: "manual",
      draftThreshold: 0.65,
      tools: {
        allow: [
          "list_files",
          "read_file",
          "write_file",
          "edit_file",
          "delete_file",
          "update_plan",
          "search_history",
          "pin",
        ],
      },
      delegation: {
        canHandoff: false,
        callable: true,
        allowAsHandoffTarget: true,
        allowedCallers: "*",
        maxHandoffDepth: 3,
      },
      builtIn: false,
    });
    expect(Object.keys(created.body.profile).sort()).toEqual(
      [
        "briefShare",
        "builtIn",
        "compactThreshold",
        "contextStrategy",
        "createdAt",
        "delegation",
        "description",
        "draftThreshold",
        "id",
        "maxSteps",
        "model",
        "name",
        "resetThreshold",
        "reviewResets",
        "systemPrompt",
        "tools",
        "updatedAt",
      ].sort(),
    );
    expect(new Date(created.body.profile.createdAt).toISOString()).toBe(
      created.body.profile.createdAt,
    );
    expect((await api.get("writer")).body.profile).toEqual(created.body.profile);
  });

  it("stores every field it is given, deduplicating tools and callers", async () => {
    const { api } = await signedIn();
    const created = await api.create({
      id: "planner-2",
      name: "Planner",
      description: "Plans the work.",
      systemPrompt: "Plan first.",
      model: "baton/local",
      contextStrategy: "compact",
      resetThreshold: 0.9,
      compactThreshold: 0.6,
      maxSteps: 200,
      tools: { allow: ["update_plan", "handoff_to_agent", "update_plan", "list_agents"] },
      delegation: {
        canHandoff: true,
        callable: false,
        allowAsHandoffTarget: false,
        allowedCallers: ["default", "writer", "default"],
        maxHandoffDepth: 0,
      },
    });
    expect(created.status).toBe(201);
    expect((await api.get("planner-2")).body.profile).toMatchObject({
      model: "baton/local",
      contextStrategy: "compact",
      resetThreshold: 0.9,
      compactThreshold: 0.6,
      maxSteps: 200,
      tools: { allow: ["update_plan", "handoff_to_agent", "list_agents"] },
      delegation: {
        canHandoff: true,
        callable: false,
        allowAsHandoffTarget: false,
        allowedCallers: ["default", "writer"],
        maxHandoffDepth: 0,
      },
    });
  });

  it("lists the built-in Default first, then the user's agents by name", async () => {
    const { api } = await signedIn();
    for (const [id, name] of [
      ["zed", "zed the reviewer"],
      ["alpha", "Bravo"],
      ["mid", "alpha"],
    ]) {
      expect((await api.create({ id, name, systemPrompt: "p" })).status).toBe(201);
    }
    const listed = await api.list();
    expect(listed.status).toBe(200);
    expect(
      listed.body.profiles.map((p: { id: string; builtIn: boolean }) => [p.id, p.builtIn]),
    ).toEqual([
      ["default", true],
      ["mid", false],
      ["alpha", false],
      ["zed", false],
    ]);
    expect(listed.body.profiles[0]).toMatchObject({
      name: "Default",
      createdAt: null,
      updatedAt: null,
    });
  });

  it("a slug the user already has is a 409 that changes nothing", async () => {
    const { api } = await signedIn();
    await api.create(writer);
    const before = await dbHashes();
    const again = await api.create({ ...writer, name: "Another writer" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict:profile_exists");
    expect(await dbHashes()).toEqual(before);
    expect((await api.get("writer")).body.profile.name).toBe("Writer");
  });

  it("a patch changes only what it names; a partial delegation keeps the rest", async () => {
    const { api } = await signedIn();
    const created = (await api.create(writer)).body.profile;
    const patched = await api.patch("writer", {
      name: "Editor",
      tools: { allow: ["read_file", "read_file", "handoff_to_agent"] },
      delegation: { canHandoff: true, allowedCallers: ["default"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.profile).toEqual({
      ...created,
      name: "Editor",
      tools: { allow: ["read_file", "handoff_to_agent"] },
      delegation: { ...created.delegation, canHandoff: true, allowedCallers: ["default"] },
      updatedAt: patched.body.profile.updatedAt,
    });
    expect(new Date(patched.body.profile.updatedAt) >= new Date(created.updatedAt)).toBe(true);
    expect((await api.get("writer")).body.profile).toEqual(patched.body.profile);

    const model = await api.patch("writer", { model: "baton/local" });
    expect(model.body.profile.model).toBe("baton/local");
    const back = await api.patch("writer", { model: null });
    expect(back.body.profile.model).toBeNull();
  });

  it("a patch is checked against the stored thresholds it merges into", async () => {
    const { api } = await signedIn();
    await api.create(writer); // 0.8 / 0.5
    const before = await dbHashes();
    const low = await api.patch("writer", { resetThreshold: 0.4 });
    expect(low.status).toBe(400);
    expect(Object.keys(low.body.error.fields)).toEqual(["compactThreshold"]);
    expect(await dbHashes()).toEqual(before);
    const both = await api.patch("writer", { resetThreshold: 0.4, compactThreshold: 0.3 });
    expect(both.status).toBe(200);
    expect(both.body.profile).toMatchObject({ resetThreshold: 0.4, compactThreshold: 0.3 });
  });

  const badPatches: [string, unknown, string][] = [
    ["an empty patch", {}, "(body)"],
    ["the slug (not patchable)", { id: "renamed" }, "id"],
    ["builtIn", { builtIn: true }, "builtIn"],
    ["a blank name", { name: "" }, "name"],
    ["an unknown tool", { tools: { allow: ["shell"] } }, "tools.allow.0"],
    ["an unconfigured model", { model: "anthropic:nope" }, "model"],
    ["a negative depth", { delegation: { maxHandoffDepth: -1 } }, "delegation.maxHandoffDepth"],
    ["a step count as text", { maxSteps: "10" }, "maxSteps"],
  ];

  it.each(badPatches)(
    "PATCH refuses %s with a field error and stores nothing",
    async (_l, body, field) => {
      const { api } = await signedIn();
      const created = (await api.create(writer)).body.profile;
      const before = await dbHashes();
      const res = await api.patch("writer", body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.fields)).toContain(field);
      expect(await dbHashes()).toEqual(before);
      expect((await api.get("writer")).body.profile).toEqual(created);
    },
  );

  it("deletes a profile no thread uses (204), after which it is gone", async () => {
    const { api } = await signedIn();
    await api.create(writer);
    const deleted = await api.remove("writer");
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await api.get("writer")).status).toBe(404);
    expect((await api.remove("writer")).status).toBe(404);
    expect((await api.list()).body.profiles).toHaveLength(1);
  });

  it("the built-in Default is readable; changing or deleting it is a 403", async () => {
    const { api } = await signedIn();
    const builtIn = await api.get("default");
    expect(builtIn.status).toBe(200);
    expect(builtIn.body.profile).toMatchObject({ id: "default", name: "Default", builtIn: true });
    const before = await dbHashes();
    const patched = await api.patch("default", { name: "Mine now" });
    expect(patched.status).toBe(403);
    expect(patched.body.error.code).toBe("forbidden:builtin_profile");
    const deleted = await api.remove("default");
    expect(deleted.status).toBe(403);
    expect(deleted.body.error.code).toBe("forbidden:builtin_profile");
    expect(await dbHashes()).toEqual(before);
  });

  it("a malformed slug in the path is a 404, like a missing one", async () => {
    const { api } = await signedIn();
    for (const slug of ["Nope", "no_such", "missing"]) {
      const res = await api.get(slug);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found:profile");
    }
  });
});

describe("profiles belong to their owner", () => {
  it("two users can both own `writer`, each seeing only their own", async () => {
    const ada = await signedIn();
    const bob = await signedIn();
    expect((await ada.api.create({ ...writer, name: "Ada's writer" })).status).toBe(201);
    expect((await bob.api.create({ ...writer, name: "Bob's writer" })).status).toBe(201);
    expect((await ada.api.get("writer")).body.profile.name).toBe("Ada's writer");
    expect((await bob.api.get("writer")).body.profile.name).toBe("Bob's writer");
    expect((await bob.api.list()).body.profiles.map((p: { name: string }) => p.name)).toEqual([
      "Default",
      "Bob's writer",
    ]);
  });

  it("another user's slug is a 404 on GET, PATCH and DELETE, and stays as it was", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const created = (await owner.api.create({ ...writer, id: "secret-agent" })).body.profile;
    const before = await dbHashes();
    const got = await stranger.api.get("secret-agent");
    const patched = await stranger.api.patch("secret-agent", { name: "Taken over" });
    const deleted = await stranger.api.remove("secret-agent");
    for (const res of [got, patched, deleted]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found:profile");
    }
    expect(await dbHashes()).toEqual(before);
    expect((await owner.api.get("secret-agent")).body.profile).toEqual(created);
  });
});
