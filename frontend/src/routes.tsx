// The route table of the single-page app.
import { createBrowserRouter, Navigate } from "react-router";
import { EmptyState } from "@/components/common/EmptyState";
import { Layout } from "@/components/common/Layout";
import { ComparePage } from "@/features/compare/components/ComparePage";
import { ExperimentPage } from "@/features/experiments/components/ExperimentPage";
import { ExperimentsPage } from "@/features/experiments/components/ExperimentsPage";
import { NewExperimentPage } from "@/features/experiments/components/NewExperimentPage";
import { ModelsPage } from "@/features/models/components/ModelsPage";

export const router = createBrowserRouter([
  {
    path: "/",
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/experiments" replace /> },
      { path: "experiments", element: <ExperimentsPage /> },
      { path: "experiments/new", element: <NewExperimentPage /> },
      { path: "experiments/:experimentId", element: <ExperimentPage /> },
      { path: "compare", element: <ComparePage /> },
      { path: "models", element: <ModelsPage /> },
      { path: "*", element: <EmptyState title="Page not found" /> },
    ],
  },
]);
