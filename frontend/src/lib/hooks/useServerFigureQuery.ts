// A figure as the server draws it (its .json, screen style): the one definition of every
// figure is on the server, the page only draws its Plotly JSON.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Data, Layout } from "plotly.js";
import { useEffect, useRef } from "react";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys } from "@/lib/queryKeys";
import { type AnyServerFigure, fetchServerFigure } from "@/lib/serverFigure";

/** Plotly's JSON of a figure; `layout.meta` carries its caption and facts the page states. */
export interface FigureJson {
  data: Data[];
  layout: Partial<Layout> & {
    meta?: {
      caption?: string;
      beyond?: number;
      span?: string;
      span_label?: string;
      /** Parallel coordinates: the axis keys in order, lines drawn, configurations. */
      axes?: string[];
      lines?: number;
      count?: number;
    };
  };
}

async function fetchFigure(figure: AnyServerFigure): Promise<FigureJson> {
  const response = await fetchServerFigure(figure, "json", { style: "screen" });
  return (await response.json()) as FigureJson;
}

function figureKey(figure: AnyServerFigure | null) {
  if (figure && "calculator" in figure)
    return queryKeys.models.figure(figure.calculator, figure.body);
  if (figure && "body" in figure) return queryKeys.compare.figure(figure.name, figure.body);
  return queryKeys.experiments.figure(
    figure?.experimentId ?? 0,
    figure?.name ?? "",
    figure?.params ?? {},
  );
}

/** The shortest time between two redraws a `refreshOn` change asks for (the live figure). */
export const REFRESH_MIN_MS = 1000;

/** The figure's JSON; null disables the query (e.g. nothing selected yet). Each change of
 * `refreshOn` (e.g. the latest second of a live run) refetches it, at most once per
 * REFRESH_MIN_MS: a burst of changes ends in one refetch after the last of them. */
export function useServerFigureQuery(
  figure: AnyServerFigure | null,
  poll = false,
  refreshOn?: string | number,
) {
  const query = useQuery({
    queryKey: figureKey(figure),
    queryFn: () => fetchFigure(figure as AnyServerFigure),
    enabled: figure !== null,
    // Keep the drawn figure while a changed selection loads: no flash of an empty card.
    placeholderData: keepPreviousData,
    refetchInterval: poll ? 5000 : false,
    // A 4xx says "no data for this selection": no retry, the page says so in place.
    retry: retryUnlessAnswered,
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
