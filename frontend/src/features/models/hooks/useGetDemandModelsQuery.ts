// The models built from measured demands (utilization law per CPU) of a stored experiment.
import { useQuery } from "@tanstack/react-query";
import { AnalysisService } from "@/api";
import { retryUnlessAnswered } from "@/lib/apiError";
import { queryKeys } from "@/lib/queryKeys";

async function fetchDemandModels(id: number) {
  const { data } = await AnalysisService.readDemandModels({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function useGetDemandModelsQuery(id: number) {
  const query = useQuery({
    queryKey: queryKeys.experiments.demandModels(id),
    queryFn: () => fetchDemandModels(id),
    retry: retryUnlessAnswered,
  });
  return { demands: query.data, isLoading: query.isLoading, error: query.error } as const;
}
