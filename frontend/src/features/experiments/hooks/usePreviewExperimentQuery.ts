// Live grid preview of a design being edited: debounced (the first design is asked at once),
// and the last valid answer stays shown while the design is invalid.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { type ExperimentCreate, ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export const PREVIEW_DEBOUNCE_MS = 400;

async function fetchPreview(spec: ExperimentCreate) {
  const { data } = await ExperimentsService.previewExperiment({ body: spec, throwOnError: true });
  return data;
}

/** The value, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return debounced;
}

export function usePreviewExperimentQuery(spec: ExperimentCreate, delayMs = PREVIEW_DEBOUNCE_MS) {
  const debounced = useDebounced(spec, delayMs);
  const query = useQuery({
    queryKey: queryKeys.experiments.preview(debounced),
    queryFn: () => fetchPreview(debounced),
    placeholderData: keepPreviousData,
    retry: false,
  });
  // An error replaces a query's data; the user should still see the last grid that was valid.
  const lastGood = useRef(query.data);
  if (query.data !== undefined) lastGood.current = query.data;
  return {
    preview: query.data ?? lastGood.current,
    error: query.error,
    isFetching: query.isFetching,
    isStale: debounced !== spec || query.isPlaceholderData,
  } as const;
}
