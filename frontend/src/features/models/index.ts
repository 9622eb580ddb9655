// The public entrance of the models feature: what other features and the routes may use.
export { ExperimentModelsView } from "./components/ExperimentModelsView";
export { ModelsPage } from "./components/ModelsPage";
