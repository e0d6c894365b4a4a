import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyArtifact, type HandoffArtifact, handoffArtifactSchema } from "./artifact";
import { HandoffMarkdownError, parseHandoffMarkdown, renderHandoffMarkdown } from "./markdown";

const sample: HandoffArtifact = handoffArtifactSchema.parse({
  goal: "Ship the billing page",
  state_summary: "Checkout works.\n\nRefunds are half done.",
  completed_work: ["Wire Stripe checkout", "Add invoice table"],
  in_progress: ["Refund flow"],
  remaining_tasks: [
    { id: "t1", task: "Write refund tests" },
    { id: "t2", task: "Email receipts" },
  ],
  key_decisions: ["Use Stripe, not Paddle"],
  confirmed_facts: ["Prices are in cents"],
  unknowns: ["Does the EU need VAT IDs?"],
  must_preserve: ["Never charge twice"],
  files_modified: ["app/billing/page.tsx", "lib/billing/refund.ts"],
  last_completed_step: "Invoice table renders",
  next_step: "Write refund tests",
  needs_authorization: ["Deploy to production"],
});

function roundTrip(artifact: HandoffArtifact): HandoffArtifact {
  return parseHandoffMarkdown(renderHandoffMarkdown(artifact));
}

describe("renderHandoffMarkdown", () => {
  it("writes the documented headings and list markers", () => {
    expect(renderHandoffMarkdown(sample)).toBe(
      [
        "# Handoff: Ship the billing page",
        "## State summary",
        "Checkout works.",
        "",
        "Refunds are half done.",
        "## Completed work",
        "- [x] Wire Stripe checkout",
        "- [x] Add invoice table",
        "## In progress",
        "- [ ] Refund flow",
        "## Remaining tasks",
        "- [ ] t1: Write refund tests",
        "- [ ] t2: Email receipts",
        "## Key decisions",
        "- Use Stripe, not Paddle",
        "## Confirmed facts",
        "- Prices are in cents",
        "## Unknowns",
        "- Does the EU need VAT IDs?",
        "## Must preserve",
        "- Never charge twice",
        "## Files modified",
        "- `app/billing/page.tsx`",
        "- `lib/billing/refund.ts`",
        "## Last completed step",
        "Invoice table renders",
        "## Next step",
        "Write refund tests",
        "## Needs authorization",
        "- Deploy to production",
        "",
      ].join("\n"),
    );
  });

  it("renders empty lists as _none_ and empty prose as no lines", () => {
    const md = renderHandoffMarkdown(emptyArtifact("Goal", "Summary"));
    expect(md).toContain("## Completed work\n_none_\n## In progress\n_none_\n");
    expect(md).toContain("## Last completed step\n## Next step\n## Needs authorization\n_none_\n");
    expect(roundTrip(emptyArtifact("Goal", "Summary"))).toEqual(emptyArtifact("Goal", "Summary"));
  });

  it("keeps items that start with markup readable", () => {
    const md = renderHandoffMarkdown({
      ...sample,
      key_decisions: ["- not a sublist", "# not a heading", "[x] not done", "use `npm i -E`"],
    });
    expect(md).toContain(
      "- - not a sublist\n- # not a heading\n- [x] not done\n- use `npm i -E`\n",
    );
  });

  it("quotes multi-line, empty and quote-leading items as JSON strings", () => {
    const md = renderHandoffMarkdown({
      ...sample,
      confirmed_facts: ["line one\nline two", "", '"quoted" start', " padded "],
    });
    expect(md).toContain(
      '## Confirmed facts\n- "line one\\nline two"\n- ""\n- "\\"quoted\\" start"\n- " padded "\n',
    );
  });

  it("quotes prose that would open a new section", () => {
    const artifact = { ...sample, state_summary: "Summary\n## Completed work\n- [x] fake" };
    const md = renderHandoffMarkdown(artifact);
    expect(md).toContain('## State summary\n"Summary\\n## Completed work\\n- [x] fake"\n');
    expect(roundTrip(artifact)).toEqual(artifact);
  });

  it("writes a task with an unusual id as a JSON object", () => {
    const artifact = { ...sample, remaining_tasks: [{ id: "a: b", task: "x" }] };
    expect(renderHandoffMarkdown(artifact)).toContain('- [ ] {"id":"a: b","task":"x"}\n');
    expect(roundTrip(artifact)).toEqual(artifact);
  });
});

describe("parseHandoffMarkdown", () => {
  it("round-trips a typical artifact", () => {
    expect(roundTrip(sample)).toEqual(sample);
  });

  it("round-trips awkward items", () => {
    const awkward = [
      "",
      " ",
      "-",
      "- dash",
      "# hash",
      "## Completed work",
      "`tick`",
      "```",
      "[x] done?",
      "[ ] open?",
      "_none_",
      '"',
      '"a"',
      "multi\nline\n\n",
      "\r\n",
      "tab\there",
      "emoji 🧪 and 中文 and é",
      "trailing space ",
      "\\n not a newline",
    ];
    const artifact = handoffArtifactSchema.parse({
      goal: "# Handoff: nested",
      state_summary: "  indented\n## Next step",
      completed_work: awkward,
      in_progress: awkward,
      remaining_tasks: awkward.map((task, i) => ({ id: i % 2 ? `t${i}` : `[${i}]\n`, task })),
      key_decisions: awkward,
      confirmed_facts: awkward,
      unknowns: awkward,
      must_preserve: awkward,
      files_modified: awkward,
      last_completed_step: '"quoted"',
      next_step: "_none_",
      needs_authorization: awkward,
    });
    expect(roundTrip(artifact)).toEqual(artifact);
  });

  it("tolerates CRLF, blank lines between sections and a missing section", () => {
    const md = [
      "# Handoff: Goal",
      "",
      "## State summary",
      "",
      "Summary",
      "",
      "## Confirmed facts",
      "",
      "* fact one",
      "- fact two",
      "",
    ].join("\r\n");
    expect(parseHandoffMarkdown(md)).toEqual({
      ...emptyArtifact("Goal", "Summary"),
      confirmed_facts: ["fact one", "fact two"],
    });
  });

  it("rejects text it cannot place instead of dropping it", () => {
    expect(() => parseHandoffMarkdown("no title")).toThrow(HandoffMarkdownError);
    expect(() => parseHandoffMarkdown("# Handoff: g\n## Mystery\n- x")).toThrow(/unknown section/);
    expect(() => parseHandoffMarkdown("# Handoff: g\n## Unknowns\nloose text")).toThrow(
      /list item/,
    );
    expect(() => parseHandoffMarkdown("# Handoff: g\n## Unknowns\n## Unknowns")).toThrow(
      /duplicate/,
    );
  });

  it("round-trips any valid artifact (property)", () => {
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc
        .array(
          fc.constantFrom(
            "-",
            "#",
            "`",
            "[x]",
            "[ ]",
            '"',
            "\n",
            "\r",
            " ",
            "\t",
            "a",
            "_none_",
            ":",
            "## ",
          ),
          {
            maxLength: 12,
          },
        )
        .map((parts) => parts.join("")),
    );
    const list = fc.array(text, { maxLength: 4 });
    const artifact = fc.record({
      goal: text,
      state_summary: text,
      completed_work: list,
      in_progress: list,
      remaining_tasks: fc.array(
        fc.record({
          id: fc.oneof(
            fc.stringMatching(/^t[0-9]{1,3}$/),
            fc.string({ unit: "binary", minLength: 1, maxLength: 64 }),
          ),
          task: text,
        }),
        { maxLength: 4 },
      ),
      key_decisions: list,
      confirmed_facts: list,
      unknowns: list,
      must_preserve: list,
      files_modified: list,
      last_completed_step: text,
      next_step: text,
      needs_authorization: list,
    });
    fc.assert(
      fc.property(artifact, (a) => {
        expect(roundTrip(a)).toEqual(a);
      }),
      { numRuns: 500 },
    );
  });
});
