// Live grid preview of a design being edited: debounced (the first design is asked at once),
// and the last valid answer is kept beside the error (GridPreview shows no numbers then).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import {
  type ExperimentCreate,
  ExperimentsService,
  type PostApiV1ExperimentsPreviewData,
} from "@/api";
import { useDebounced } from "@/lib/hooks/useDebounced";
import { queryKeys } from "@/lib/queryKeys";

export const PREVIEW_DEBOUNCE_MS = 400;

/** The preview's power inputs: alpha, power and the noise (see toPowerQuery). */
export type PreviewPowerQuery = NonNullable<PostApiV1ExperimentsPreviewData["query"]>;

async function fetchPreview(spec: ExperimentCreate, power: PreviewPowerQuery) {
  const { data } = await ExperimentsService.previewExperiment({
    body: spec,
    query: power,
    throwOnError: true,
  });
  return data;
}

const NO_POWER: PreviewPowerQuery = {};

/** `spec` and `power` must keep their identity between renders while unchanged (memoized). */
export function usePreviewExperimentQuery(
  spec: ExperimentCreate,
  delayMs = PREVIEW_DEBOUNCE_MS,
  power: PreviewPowerQuery = NO_POWER,
) {
  const input = useMemo(() => ({ spec, power }), [spec, power]);
  const debounced = useDebounced(input, delayMs);
  const query = useQuery({
    queryKey: queryKeys.experiments.preview(debounced.spec, debounced.power),
    queryFn: () => fetchPreview(debounced.spec, debounced.power),
    placeholderData: keepPreviousData,
    retry: false,
  });
  // An error replaces a query's data; the last valid answer still decides which inputs show.
  const lastGood = useRef(query.data);
  if (query.data !== undefined) lastGood.current = query.data;
  return {
    preview: query.data ?? lastGood.current,
    error: query.error,
    isFetching: query.isFetching,
    isStale: debounced !== input || query.isPlaceholderData,
  } as const;
}
