"use client";
// The thread's plan for the checklist: read from the plan API on load, then kept current by the
// `update_plan` results streaming in (a result newer than what was loaded wins).
import { useEffect, useMemo, useState } from "react";
import type { PlanItem } from "@/core/plan-items";
import type { StreamedPlan } from "@/lib/chat/tool-view";
import { fetchPlan, type WorkspaceBase } from "./workspace-api";

export function usePlan(
  base: WorkspaceBase,
  enabled: boolean,
  streamed: StreamedPlan | null,
): PlanItem[] {
  const [loaded, setLoaded] = useState<StreamedPlan | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetchPlan(base).then(
      (plan) => {
        if (live) setLoaded({ items: plan.items, version: plan.version });
      },
      // The checklist is a convenience: without the plan the chat works as before.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [base, enabled]);
  return useMemo(() => {
    if (streamed && (!loaded || streamed.version > loaded.version)) return streamed.items;
    return loaded?.items ?? [];
  }, [loaded, streamed]);
}
