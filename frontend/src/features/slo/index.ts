// The public entrance of the slo feature: what other features and the routes may use.
export { SloSearchEditor } from "./components/SloSearchEditor";
export { SloSearchPanel } from "./components/SloSearchPanel";
export { fromSloSearch, NEW_SEARCH, type SloForm, toSloSearch } from "./utils/sloForm";
