import { describe, expect, it } from "vitest";
import { parseCommand } from "@/lib/demo-model/knowledge";
import { type HandoffArtifactInput, handoffArtifactSchema } from "./artifact";
import { applyExplicitMarkers, parseExplicitMarkers } from "./explicit-markers";

const artifact = (fields: Partial<HandoffArtifactInput> = {}) =>
  handoffArtifactSchema.parse({ goal: "Ship billing", state_summary: "s", ...fields });

describe("parseExplicitMarkers", () => {
  it("reads one marker per line or sentence, with or without a colon", () => {
    const text = [
      "decide: use Postgres for the ledger.",
      "Decision: no ORM. note the API is versioned",
      "todo write the migration! remember that the launch code is 4242",
      "done t1",
    ].join("\n");
    expect(parseExplicitMarkers(text)).toEqual([
      { kind: "decide", text: "use Postgres for the ledger" },
      { kind: "decide", text: "no ORM" },
      { kind: "note", text: "the API is versioned" },
      { kind: "todo", text: "write the migration" },
      { kind: "remember", text: "the launch code is 4242" },
      { kind: "done", text: "t1" },
    ]);
  });

  it("ignores marker words inside a sentence, without an argument, or run into other words", () => {
    expect(parseExplicitMarkers("We decided to note nothing.")).toEqual([]);
    expect(parseExplicitMarkers("I'm done.")).toEqual([]);
    expect(parseExplicitMarkers("todo:")).toEqual([]);
    expect(parseExplicitMarkers("notes are in the wiki")).toEqual([]);
    expect(parseExplicitMarkers("decided: yes")).toEqual([]);
  });

  it("reads a command message as the offline model does", () => {
    for (const message of [
      "decide use Postgres",
      "remember that the vault is in Lisbon.",
      "note: the harbour closes at six!",
      "todo pack the maps",
      "done t2",
    ]) {
      const offline = parseCommand(message);
      const [marker] = parseExplicitMarkers(message);
      expect(offline && "argument" in offline ? offline.kind : null).toBe(marker?.kind);
      const argument = offline && "argument" in offline ? offline.argument : "";
      expect(argument.replace(/^that\s+/i, "")).toBe(marker?.text);
    }
  });
});

describe("applyExplicitMarkers", () => {
  it("puts each marker in its field, once", () => {
    const out = applyExplicitMarkers(artifact({ key_decisions: ["Use Postgres"] }), [
      { kind: "decide", text: "use  postgres" },
      { kind: "decide", text: "no ORM" },
      { kind: "note", text: "the API is versioned" },
      { kind: "remember", text: "the code is 4242" },
    ]);
    expect(out.key_decisions).toEqual(["Use Postgres", "no ORM"]);
    expect(out.confirmed_facts).toEqual(["the API is versioned"]);
    expect(out.must_preserve).toEqual(["the code is 4242"]);
  });

  it("carries a fact both noted and pinned once, as a pin", () => {
    const out = applyExplicitMarkers(artifact({ confirmed_facts: ["the code is 4242"] }), [
      { kind: "remember", text: "the code is 4242" },
      { kind: "note", text: "the code is 4242" },
    ]);
    expect(out.must_preserve).toEqual(["the code is 4242"]);
    expect(out.confirmed_facts).toEqual([]);
  });

  it("numbers new tasks after every id the artifact shows and closes tasks by id or text", () => {
    const start = artifact({
      remaining_tasks: [{ id: "t2", task: "pack the maps" }],
      completed_work: ["t3: book the train"],
    });
    const out = applyExplicitMarkers(start, [
      { kind: "todo", text: "call the harbour" },
      { kind: "todo", text: "Pack the maps" },
      { kind: "done", text: "t2" },
      { kind: "done", text: "call the harbour" },
      { kind: "done", text: "t9" },
      { kind: "done", text: "swept the deck" },
    ]);
    expect(out.remaining_tasks).toEqual([]);
    expect(out.completed_work).toEqual([
      "t3: book the train",
      "t2: pack the maps",
      "t4: call the harbour",
      "swept the deck",
    ]);
  });

  it("leaves the artifact unchanged without markers", () => {
    const start = artifact({ key_decisions: ["a"] });
    expect(applyExplicitMarkers(start, [])).toEqual(start);
  });
});
