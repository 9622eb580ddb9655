// The route table of the single-page app.
import { createBrowserRouter, Navigate } from "react-router";
import { EmptyState } from "@/components/common/EmptyState";
import { Layout } from "@/components/common/Layout";
import { LoginPage } from "@/features/auth";
import { ComparePage } from "@/features/compare";
import { DesignPage, ExperimentPage, ExperimentsPage } from "@/features/experiments";
import { ImportPage } from "@/features/imports";
import { ModelsPage } from "@/features/models";
import { PricesPage } from "@/features/prices";
import { RunPage } from "@/features/runs";
import { TestbedsPage } from "@/features/testbeds";
import { UrlStateRoot } from "@/lib/urlState/UrlStateRoot";

// Every route sits under UrlStateRoot, so any page can keep its view in the search params.
export const router = createBrowserRouter([
  { path: "/login", element: <LoginPage /> },
  {
    element: <UrlStateRoot />,
    children: [
      {
        path: "/",
        element: <Layout />,
        children: [
          { index: true, element: <Navigate to="/experiments" replace /> },
          { path: "experiments", element: <ExperimentsPage /> },
          { path: "experiments/new", element: <DesignPage mode="new" /> },
          { path: "experiments/import", element: <ImportPage /> },
          { path: "experiments/:experimentId", element: <ExperimentPage /> },
          { path: "experiments/:experimentId/edit", element: <DesignPage mode="edit" /> },
          { path: "runs/:runId", element: <RunPage /> },
          { path: "testbeds", element: <TestbedsPage /> },
          { path: "prices", element: <PricesPage /> },
          { path: "compare", element: <ComparePage /> },
          { path: "models", element: <ModelsPage /> },
          { path: "*", element: <EmptyState title="Page not found" /> },
        ],
      },
    ],
  },
]);
