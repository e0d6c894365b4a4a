import { describe, expect, it } from "vitest";
import {
  latestStreamedPlan,
  pendingApprovalIds,
  type ToolPart,
  toolInputPreview,
  toolInputSummary,
  toolPreviewOf,
  toolStatusOf,
  workspaceChangeCount,
} from "./tool-view";
import type { ChatMessage } from "./types";

const part = (fields: Record<string, unknown>): ToolPart =>
  ({ toolCallId: "call-1", input: {}, ...fields }) as unknown as ToolPart;

const assistant = (parts: unknown[]): ChatMessage => ({
  id: "a1",
  role: "assistant",
  parts: parts as ChatMessage["parts"],
});

describe("toolStatusOf", () => {
  it.each([
    ["input-streaming", {}, "running"],
    ["input-available", {}, "running"],
    ["approval-requested", { approval: { id: "ap1" } }, "awaiting_approval"],
    ["approval-responded", { approval: { id: "ap1", approved: true } }, "approved"],
    ["approval-responded", { approval: { id: "ap1", approved: false } }, "denied"],
    ["output-denied", { approval: { id: "ap1", approved: false } }, "denied"],
    ["output-error", { errorText: "boom" }, "error"],
    ["output-error", { errorText: "Stopped by the user." }, "stopped"],
    ["output-available", { output: { ok: true, path: "a.md" } }, "done"],
    ["output-available", { output: { ok: false, error: "No such file" } }, "error"],
  ])("%s %j is %s", (state, fields, status) => {
    expect(toolStatusOf(part({ type: "tool-write_file", state, ...fields }))).toBe(status);
  });
});

describe("toolInputSummary", () => {
  it("names the path and size of a write", () => {
    const write = part({
      type: "tool-write_file",
      state: "input-available",
      input: { path: "work/p1.md", content: "x".repeat(2048) },
    });
    expect(toolInputSummary(write)).toBe("work/p1.md · 2.0 kB");
  });

  it("names a read's line range", () => {
    const read = part({
      type: "tool-read_file",
      state: "input-available",
      input: { path: "big.txt", startLine: 40, endLine: 80 },
    });
    expect(toolInputSummary(read)).toBe("big.txt · lines 40–80");
  });

  it("counts a plan's items", () => {
    const update = part({
      type: "tool-update_plan",
      state: "input-available",
      input: {
        items: [
          { id: "p1", task: "a", status: "done" },
          { id: "p2", task: "b", status: "in_progress" },
          { id: "p3", task: "c", status: "pending" },
        ],
      },
    });
    expect(toolInputSummary(update)).toBe("3 items, 1 done, p2 in progress");
  });

  it("shortens any other tool's input to one line", () => {
    const other = part({
      type: "dynamic-tool",
      toolName: "mcp_search",
      state: "input-available",
      input: { query: `find ${"word ".repeat(40)}` },
    });
    const summary = toolInputSummary(other);
    expect(summary.length).toBeLessThanOrEqual(80);
    expect(summary.startsWith("find word")).toBe(true);
    expect(summary.endsWith("…")).toBe(true);
  });
});

describe("toolInputPreview", () => {
  it("shows a write's content as text, and nothing the summary already says", () => {
    const write = part({
      type: "tool-write_file",
      state: "input-available",
      input: { path: "a.md", content: "# Title\nbody" },
    });
    expect(toolInputPreview(write)).toBe("# Title\nbody");
    const remove = part({
      type: "tool-delete_file",
      state: "input-available",
      input: { path: "a.md" },
    });
    expect(toolInputPreview(remove)).toBeNull();
    const other = part({ type: "tool-search", state: "input-available", input: { q: "x" } });
    expect(toolInputPreview(other)).toBe('{\n  "q": "x"\n}');
  });
});

describe("toolPreviewOf", () => {
  it("shows a read's lines and where to read on", () => {
    const read = part({
      type: "tool-read_file",
      state: "output-available",
      output: {
        ok: true,
        path: "big.txt",
        startLine: 1,
        endLine: 2,
        totalLines: 900,
        content: "1: a\n2: b",
        hint: "Read lines 3–60 next.",
      },
    });
    expect(toolPreviewOf(read)).toEqual({
      summary: "Read lines 1–2 of 900 · Read lines 3–60 next.",
      body: "1: a\n2: b",
    });
  });

  it("says where a large result was saved", () => {
    const spilled = part({
      type: "tool-list_files",
      state: "output-available",
      output: { spilled: true, path: ".baton/results/call-1.txt", bytes: 20_480, preview: "…" },
    });
    expect(toolPreviewOf(spilled).summary).toBe(
      "Large result saved to .baton/results/call-1.txt (20.0 kB)",
    );
  });

  it("shows a denial's reason and a tool error's message", () => {
    const denied = part({
      type: "tool-delete_file",
      state: "output-denied",
      approval: { id: "ap1", approved: false, reason: "Not run: the session ended." },
    });
    expect(toolPreviewOf(denied)).toEqual({
      summary: "Denied — not run.",
      body: "Not run: the session ended.",
    });
    const failed = part({
      type: "tool-edit_file",
      state: "output-available",
      output: { ok: false, error: "`old` occurs 3 times" },
    });
    expect(toolPreviewOf(failed)).toEqual({ summary: "Failed.", body: "`old` occurs 3 times" });
  });
});

describe("what streamed results tell the panels", () => {
  const plan = (version: number, status: "pending" | "done") => ({
    type: "tool-update_plan",
    toolCallId: `plan-${version}`,
    state: "output-available",
    input: {},
    output: { ok: true, version, items: [{ id: "p1", task: "a", status }] },
  });

  it("takes the plan of the highest version", () => {
    const messages = [assistant([plan(2, "done")]), assistant([plan(1, "pending")])];
    expect(latestStreamedPlan(messages)).toEqual({
      version: 2,
      items: [{ id: "p1", task: "a", status: "done" }],
    });
    expect(latestStreamedPlan([assistant([{ type: "text", text: "hi" }])])).toBeNull();
  });

  it("ignores a failed or still running plan update", () => {
    const failed = { ...plan(3, "done"), output: { ok: false, error: "bad" } };
    const running = { ...plan(4, "done"), state: "input-available", output: undefined };
    expect(latestStreamedPlan([assistant([plan(1, "pending"), failed, running])])?.version).toBe(1);
  });

  it("counts finished writes, edits, deletes and saved results, not reads or failures", () => {
    const call = (type: string, output: unknown, state = "output-available") => ({
      type,
      toolCallId: `${type}-${Math.random()}`,
      state,
      input: {},
      output,
    });
    const message = assistant([
      call("tool-write_file", { ok: true }),
      call("tool-edit_file", { ok: true }),
      call("tool-delete_file", { ok: true }),
      call("tool-list_files", { spilled: true, path: ".baton/results/x.txt" }),
      call("tool-read_file", { ok: true }),
      call("tool-write_file", { ok: false, error: "too big" }),
      call("tool-write_file", undefined, "input-available"),
    ]);
    expect(workspaceChangeCount([message])).toBe(4);
  });

  it("lists the approvals still waiting", () => {
    const message = assistant([
      {
        type: "tool-delete_file",
        toolCallId: "c1",
        state: "approval-requested",
        input: {},
        approval: { id: "ap1" },
      },
      {
        type: "tool-delete_file",
        toolCallId: "c2",
        state: "output-denied",
        input: {},
        approval: { id: "ap2", approved: false },
      },
    ]);
    expect(pendingApprovalIds(message.parts)).toEqual(["ap1"]);
  });
});
