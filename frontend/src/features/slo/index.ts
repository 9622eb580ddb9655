// The public entrance of the slo feature: what other features and the routes may use.
export { SloSearchPanel } from "./components/SloSearchPanel";
