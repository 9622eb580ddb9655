// The public entrance of the testbeds feature: what other features and the routes may use.
export { NetworkTable } from "./components/NetworkTable";
export { TestbedsPage } from "./components/TestbedsPage";
