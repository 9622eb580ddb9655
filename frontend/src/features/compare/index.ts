// The public entrance of the compare feature: what other features and the routes may use.
export { ComparePage } from "./components/ComparePage";
