// The public entrance of the results feature: what other features and the routes may use.
export { FactorSelect } from "./components/FactorSelect";
export { ResultSelectors } from "./components/ResultSelectors";
export { ResultsView } from "./components/ResultsView";
export { WindowPicker } from "./components/WindowPicker";
