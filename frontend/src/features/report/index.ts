// The public entrance of the report feature: what other features and the routes may use.
export { AddToReport } from "./components/AddToReport";
export { ReportView } from "./components/ReportView";
export { differencesTarget, figureTarget, tableTarget } from "./utils/views";
