// The public entrance of the runs feature: what other features and the routes may use.
export { LiveProgress } from "./components/LiveProgress";
export { RunPage } from "./components/RunPage";
export { RunsPanel } from "./components/RunsPanel";
export { useCancelExperimentMutation } from "./hooks/useCancelExperimentMutation";
export { useGetRunsQuery } from "./hooks/useGetRunsQuery";
export { endedRuns, useRefreshWhenRunsFinish } from "./hooks/useRefreshWhenRunsFinish";
export { useStartExperimentMutation } from "./hooks/useStartExperimentMutation";
