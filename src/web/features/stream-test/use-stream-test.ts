// The stream test's states (spec §4): idle, running through the four phases in order, then
// complete with results or failed. Test Again starts over. Toasts as spec §8 words them.
import { useCallback, useEffect, useRef, useState } from "react";
import { READINESS_LABELS, STREAM_TEST_PHASES, type StreamTestPhaseKey, type StreamTestResult } from "@/shared/readiness";
import { toast } from "@/web/lib/toast";
import { type RunOptions, runStreamTest } from "./measure";

export type StreamTestState =
  | { status: "idle" }
  | { status: "running"; phase: StreamTestPhaseKey; label: string; progress: number }
  | { status: "complete"; result: StreamTestResult; testedAt: Date }
  | { status: "failed" };

/**
 * Overall progress in whole percent: each phase runs from the previous phase's mark to its own
 * (download 0→25, latency 25→50, jitter 50→75, packet loss 75→100).
 */
export function overallProgress(phase: StreamTestPhaseKey, fraction: number): number {
  const index = STREAM_TEST_PHASES.findIndex((p) => p.key === phase);
  const from = index > 0 ? STREAM_TEST_PHASES[index - 1].progress : 0;
  const to = STREAM_TEST_PHASES[index].progress;
  const f = Math.min(1, Math.max(0, fraction));
  return Math.round(from + (to - from) * f);
}

function phaseLabel(phase: StreamTestPhaseKey): string {
  return STREAM_TEST_PHASES.find((p) => p.key === phase)?.label ?? "";
}

export function useStreamTest(run: (options: RunOptions) => Promise<StreamTestResult> = runStreamTest) {
  const [state, setState] = useState<StreamTestState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page ends a test in progress (and the data it would still use).
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    const first = STREAM_TEST_PHASES[0];
    setState({ status: "running", phase: first.key, label: first.label, progress: 0 });
    try {
      const result = await run({
        signal: current.signal,
        onProgress: (phase, fraction) => {
          const progress = overallProgress(phase, fraction);
          // Only a new phase or a new whole percent re-renders: the download reports every chunk.
          setState((s) =>
            s.status === "running" && s.phase === phase && s.progress === progress
              ? s
              : { status: "running", phase, label: phaseLabel(phase), progress },
          );
        },
      });
      if (current.signal.aborted) return;
      setState({ status: "complete", result, testedAt: new Date() });
      toast.success("Stream Test Complete", { description: `IPTV Status: ${READINESS_LABELS[result.iptvReadiness]}` });
    } catch (error) {
      if (current.signal.aborted) return;
      console.error(error);
      setState({ status: "failed" });
      toast.error("Stream Test Failed", { description: "Please check your connection and try again" });
    } finally {
      if (controller.current === current) controller.current = null;
    }
  }, [run]);

  return { state, start };
}
