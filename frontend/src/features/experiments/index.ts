// The public entrance of the experiments feature: what other features and the routes may use.
export { DesignPage } from "./components/DesignPage";
export { ExperimentPage } from "./components/ExperimentPage";
export { ExperimentsPage } from "./components/ExperimentsPage";
