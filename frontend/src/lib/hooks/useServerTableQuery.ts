// Whether the server can write a table for a selection (its CSV): a report item's table is
// checked as the bundle will build it, so a table it leaves out says why in place.
import { useQuery } from "@tanstack/react-query";
import { retryUnlessAnswered } from "@/lib/apiError";
import { authHeaders } from "@/lib/auth";
import { queryKeys } from "@/lib/queryKeys";
import { fetchOk } from "@/lib/serverFigure";
import { type ServerTable, tableUrl } from "@/lib/serverTable";

async function fetchTable(table: ServerTable): Promise<string> {
  const response = await fetchOk(tableUrl(table, "csv"), { headers: authHeaders() });
  return response.text();
}

/** The table's CSV; null disables the query. */
export function useServerTableQuery(table: ServerTable | null) {
  const query = useQuery({
    queryKey: queryKeys.experiments.table(
      table?.experimentId ?? 0,
      table?.name ?? "",
      table?.params ?? {},
    ),
    queryFn: () => fetchTable(table as ServerTable),
    enabled: table !== null,
    retry: retryUnlessAnswered,
  });
  return { csv: query.data, isLoading: query.isLoading, error: query.error } as const;
}
