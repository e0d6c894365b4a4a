// Entering a run: a new one takes its session (waiting its turn, then compacting or resetting a
// session that is already full), a resumed one (an approval answer, a Continue) picks up its
// stored message. Either returns the first view, or `suspended` when a reset stopped at a draft.
import "server-only";
import { placeRunStart } from "@/db/queries/runs";
import { compactSession } from "@/lib/context/compaction";
import { contextAction } from "./loop-decide";
import { goOnIn, view } from "./loop-leg";
import { openMessage, sealMessage, setMetadata } from "./loop-message";
import { resetForRun } from "./loop-reset";
import { type RunState, schedulePlaceholder } from "./loop-state";
import { recoveryOf } from "./recovery-registry";
import type { SessionView } from "./run-context";
import { RunRecorder } from "./run-recorder";
import { currentSessionOr, enterSession } from "./run-session";

/** At most this long a run's first journal writes wait for its first token. */
const JOURNAL_HOLD_MS = 1000;

export async function startRun(s: RunState): Promise<SessionView | "suspended"> {
  const { request, claimed } = s.input;
  if (!claimed) throw new Error("a new run needs the run row that claimed its request");
  s.run = claimed;
  startJournal(s);
  // Messages a recovering server is answering come first: this one is answered after them.
  if (!s.input.recovering) await recoveryOf(s.agent.scope.threadId);
  const entered = await enterSession(s.agent.scope, s.out, {
    request,
    session: s.session,
    queued: s.input.queued,
    runId: claimed.id,
    fresh: s.input.fresh,
  });
  if (entered.parked) return "suspended";
  s.session = entered.session;
  s.answering = entered.answering;
  if (s.input.fresh && !s.input.queued && request.sessionId === s.session.id) {
    s.made = [request];
  }
  s.control.entered();
  s.out.writeSession(s.session);
  const first = await prepareFirstCall(s);
  if (first === "suspended") return first;
  // The reply's placeholder (which gives it its seq) is stored once the first words are out,
  // not before: on PGlite, which runs one statement at a time, it would queue ahead of them.
  // What writes to the message awaits it. The claim already placed the run in its request's
  // session; only a request that moved (a reset committed while it waited) needs the run's
  // place written again.
  const sessionId = s.session.id;
  const moved = !(
    claimed.firstSessionId === sessionId &&
    claimed.lastSessionId === sessionId &&
    claimed.sessionIds.length === 1
  );
  schedulePlaceholder(s, () =>
    (moved ? placeRunStart({ runId: claimed.id, sessionId }) : Promise.resolve()).then(() =>
      openMessage(s),
    ),
  );
  return first;
}

/**
 * Before the first call: compaction first when the policy says so, then a reset if the session
 * is still full (not for a queued request: the reset it waited for already ran for it). The
 * request moves into the new session and is answered there.
 */
async function prepareFirstCall(s: RunState): Promise<SessionView | "suspended"> {
  const { scope } = s.agent;
  const { request } = s.input;
  let seen = await view(s, s.session);
  let action = contextAction(scope.profile, seen.context, false);
  if (action === "compact") {
    const from = s.session;
    const compaction = await compactSession({
      threadId: scope.threadId,
      ctx: seen.ctx,
      model: s.agent.model,
      tokensBefore: seen.context.inputTokens,
      estimateAfter: async () =>
        (await view(s, await currentSessionOr(scope, from))).context.inputTokens,
    });
    if (compaction) {
      s.out.write({
        type: "data-compaction",
        id: `compaction-${from.id}-${request.seq}`,
        data: compaction,
      });
      s.session = await currentSessionOr(scope, from);
      seen = await view(s, s.session);
    }
    action = contextAction(scope.profile, seen.context, true);
  }
  if (action !== "reset" || s.input.queued) return seen;
  const next = await resetForRun(s, s.session, seen.context, false);
  if (next === "suspended") return next;
  if (!next) return seen;
  s.out.writeSession(next);
  seen = await view(s, next);
  s.session = next;
  s.inSession.enteredByReset = true;
  return seen;
}

export async function resumeRun(s: RunState): Promise<SessionView> {
  const resume = s.input.resume;
  if (!resume) throw new Error("not a resumed run");
  s.run = resume.run;
  startJournal(s, resume.mode ?? "approval");
  s.recorder?.approvalsAnswered(resume.approvedCallIds);
  s.stepCount = resume.run.stepCount;
  s.message = resume.message;
  s.inSession.continued = resume.run.sessionIds.indexOf(s.session.id) > 0;
  setMetadata(s, resume.message);
  s.writer.write({
    type: "message-metadata",
    messageMetadata: { ...s.metadata, status: "partial" },
  });
  if (resume.mode !== "continue") return view(s, s.session);
  if (resume.message.sessionId === s.session.id) {
    s.saver.open(resume.message.id, resume.message.parts);
    return view(s, s.session);
  }
  // It died after a reset committed: what follows goes into the new session.
  await sealMessage(s);
  return goOnIn(s, s.session, { ...s.inSession, continued: true });
}

function startJournal(s: RunState, resumed?: "approval" | "continue"): void {
  if (!s.run) return;
  s.recorder = new RunRecorder(
    { userId: s.agent.scope.userId, threadId: s.agent.scope.threadId, runId: s.run.id },
    s.agent.ref,
  );
  // Until the first token (or the first step's end): those writes would otherwise queue ahead
  // of the ones the first token waits for.
  s.recorder.hold(JOURNAL_HOLD_MS);
  s.recorder.started(s.agent.ref, s.agent.modelId, resumed);
}
