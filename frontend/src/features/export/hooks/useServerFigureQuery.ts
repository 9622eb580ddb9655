// A figure as the server draws it (GET .../figures/{name}.json, screen style): the one
// definition of every figure is on the server, the page only draws its Plotly JSON.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Data, Layout } from "plotly.js";
import { ApiError } from "@/lib/apiError";
import { authHeaders, redirectToLogin } from "@/lib/auth";
import { queryKeys } from "@/lib/queryKeys";
import { figureUrl, type ServerFigure } from "../utils/serverFigure";

/** Plotly's JSON of a figure; `layout.meta` carries its caption and facts the page states. */
export interface FigureJson {
  data: Data[];
  layout: Partial<Layout> & {
    meta?: { caption?: string; beyond?: number; span?: string; span_label?: string };
  };
}

async function fetchFigure(figure: ServerFigure): Promise<FigureJson> {
  const response = await fetch(figureUrl(figure, "json", { style: "screen" }), {
    headers: authHeaders(),
  });
  if (response.status === 401) redirectToLogin();
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => ({}));
    throw new ApiError(response.status, body);
  }
  return (await response.json()) as FigureJson;
}

/** The figure's JSON; null disables the query (e.g. nothing selected yet). */
export function useServerFigureQuery(figure: ServerFigure | null, poll = false) {
  const query = useQuery({
    queryKey: queryKeys.experiments.figure(
      figure?.experimentId ?? 0,
      figure?.name ?? "",
      figure?.params ?? {},
    ),
    queryFn: () => fetchFigure(figure as ServerFigure),
    enabled: figure !== null,
    // Keep the drawn figure while a changed selection loads: no flash of an empty card.
    placeholderData: keepPreviousData,
    refetchInterval: poll ? 5000 : false,
    // A 4xx says "no data for this selection": no retry, the page says so in place.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  return {
    figure: query.data,
    isLoading: query.isLoading,
    error: query.error,
  } as const;
}
