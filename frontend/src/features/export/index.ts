// The public entrance of the export feature: what other features and the routes may use.
export { FigureExportButtons } from "./components/FigureExportButtons";
export { ServerPlot } from "./components/ServerPlot";
export { TableExportButtons } from "./components/TableExportButtons";
