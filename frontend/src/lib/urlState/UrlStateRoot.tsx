// The root route element: gives every page typed URL state (nuqs over React Router v7).
import { NuqsAdapter } from "nuqs/adapters/react-router/v7";
import { Outlet } from "react-router";

export function UrlStateRoot() {
  return (
    <NuqsAdapter>
      <Outlet />
    </NuqsAdapter>
  );
}
