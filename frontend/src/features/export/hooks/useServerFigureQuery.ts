// A figure as the server draws it (GET .../figures/{name}.json, screen style): the one
// definition of every figure is on the server, the page only draws its Plotly JSON.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Data, Layout } from "plotly.js";
import { useEffect, useRef } from "react";
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

/** The shortest time between two redraws a `refreshOn` change asks for (the live figure). */
export const REFRESH_MIN_MS = 1000;

/** The figure's JSON; null disables the query (e.g. nothing selected yet). Each change of
 * `refreshOn` (e.g. the latest second of a live run) refetches it, at most once per
 * REFRESH_MIN_MS: a burst of changes ends in one refetch after the last of them. */
export function useServerFigureQuery(
  figure: ServerFigure | null,
  poll = false,
  refreshOn?: string | number,
) {
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
  const { refetch } = query;
  // The first fetch is the query's own: the first refresh waits a full interval after it.
  const lastRefresh = useRef(Date.now());
  useEffect(() => {
    if (refreshOn === undefined) return;
    const wait = Math.max(0, lastRefresh.current + REFRESH_MIN_MS - Date.now());
    const timer = setTimeout(() => {
      lastRefresh.current = Date.now();
      void refetch();
    }, wait);
    return () => clearTimeout(timer);
  }, [refreshOn, refetch]);
  return {
    figure: query.data,
    isLoading: query.isLoading,
    error: query.error,
  } as const;
}
