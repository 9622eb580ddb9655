// The public entrance of the quality feature: what other features and the routes may use.
export { RerunFlaggedButton } from "./components/RerunFlaggedButton";
export { RunQuality } from "./components/RunQuality";
export { useGetExperimentQualityQuery } from "./hooks/useGetExperimentQualityQuery";
