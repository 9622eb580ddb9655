// The public entrance of the imports feature.
export { ImportPage } from "./components/ImportPage";
