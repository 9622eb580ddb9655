// Entry point: API client setup, QueryClient, router.
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { configureApiClient } from "@/lib/client";
import { createQueryClient } from "@/lib/queryClient";
import { router } from "./routes";
import "./styles.css";

configureApiClient();
const queryClient = createQueryClient();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
