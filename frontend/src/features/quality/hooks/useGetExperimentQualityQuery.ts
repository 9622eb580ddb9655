// Quality flags of an experiment's runs and configurations, over the stored or a re-cut window.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { QualityService } from "@/api";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchQuality(id: number, window?: ResultWindow | null) {
  const { data } = await QualityService.readQuality({
    path: { experiment_id: id },
    query: windowQuery(window),
    throwOnError: true,
  });
  return data;
}

export function useGetExperimentQualityQuery(
  id: number,
  window?: ResultWindow | null,
  poll = false,
) {
  const query = useQuery({
    queryKey: queryKeys.experiments.quality(id, window),
    queryFn: () => fetchQuality(id, window),
    refetchInterval: poll ? 5000 : false,
    placeholderData: keepPreviousData,
  });
  return { quality: query.data, error: query.error } as const;
}
