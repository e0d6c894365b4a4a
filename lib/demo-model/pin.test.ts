// `remember <fact>` with the pin tool: one pin call with the fact, then the confirmation.
import { beforeEach, describe, expect, it } from "vitest";
import {
  calls,
  createOfflineDriver,
  json,
  type OfflineDriver,
  system,
  user,
} from "@/tests/support/offline-driver";

let driver: OfflineDriver;
beforeEach(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  driver = await createOfflineDriver();
});

describe("the offline model's remember", () => {
  it("pins the fact, then confirms it", async () => {
    const { steps, text } = await driver.drive([
      system(),
      user("remember that the staging port is 8443"),
    ]);
    expect(calls(steps).map((c) => [c.toolName, c.input])).toEqual([
      ["pin", { text: "the staging port is 8443" }],
    ]);
    expect(driver.ws.pins).toEqual(["the staging port is 8443"]);
    expect(text).toBe("Noted — I'll remember that the staging port is 8443.");
  });

  it("leaves note unpinned", async () => {
    const { steps, text } = await driver.drive([system(), user("note the build takes 4 minutes")]);
    expect(calls(steps)).toEqual([]);
    expect(text).toBe("Noted: the build takes 4 minutes.");
  });

  it("only confirms when it has no pin tool", async () => {
    const step = await driver.next([system(), user("remember the port is 8080")], { tools: [] });
    expect(step).toEqual({ kind: "text", text: "Noted — I'll remember that the port is 8080." });
  });

  it("says so when the pin fails", async () => {
    const prompt = [system(), user("remember the port is 8080")];
    const call = await driver.next(prompt);
    driver.apply(prompt, call, json({ ok: false, error: "This conversation is gone." }));
    const reply = await driver.next(prompt);
    expect(reply.kind === "text" ? reply.text : "").toBe(
      "Noted — I'll remember that the port is 8080 in this session, but I couldn't pin it: This conversation is gone.",
    );
  });
});
