// What an empty results view says, from the experiment's run counts: never "No results yet" for
// an experiment whose runs all failed or were cancelled.

/** Title and explanation of the empty results view. */
export interface EmptyResultsText {
  title: string;
  text: string;
}

const count = (n: number, what: string) => `${n} ${what}`;

/** The empty state for run counts by status and the chosen request type. */
export function emptyResults(
  counts: Record<string, number>,
  requestType: string,
): EmptyResultsText {
  const n = (s: string) => counts[s] ?? 0;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) {
    return { title: "Not started", text: "Start the experiment to measure its configurations." };
  }
  if (n("succeeded") > 0) {
    return {
      title:
        requestType === "all"
          ? "No measurements for this selection"
          : `This experiment sent no ${requestType === "multiget" ? "multi-get" : requestType} requests`,
      text: "Try another request type or source above.",
    };
  }
  if (n("queued") + n("running") > 0) {
    const ended = [
      n("failed") && count(n("failed"), "failed"),
      n("cancelled") && count(n("cancelled"), "cancelled"),
    ].filter(Boolean);
    return {
      title: "No results yet",
      text:
        ended.length > 0
          ? `No run has succeeded so far (${ended.join(", ")}); results appear here as runs succeed.`
          : "Results appear here as runs finish.",
    };
  }
  if (n("failed") > 0) {
    const cancelled = n("cancelled") ? `, ${count(n("cancelled"), "cancelled")}` : "";
    return {
      title: "No run succeeded",
      text: `${count(n("failed"), n("failed") === 1 ? "run" : "runs")} failed${cancelled}: the runs table says why. Resume to retry them.`,
    };
  }
  return {
    title: "Cancelled before any run succeeded",
    text: "Resume to run the remaining runs.",
  };
}
