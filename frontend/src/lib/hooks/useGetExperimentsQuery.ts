// One page of the experiments list, filtered by name and template.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ExperimentsService, type Template } from "@/api/index";
import { type ExperimentListParams, queryKeys } from "@/lib/queryKeys";

async function fetchExperiments(params: ExperimentListParams) {
  const { data } = await ExperimentsService.readExperiments({
    query: {
      skip: params.skip,
      limit: params.limit,
      q: params.q || undefined,
      template: (params.template || undefined) as Template | undefined,
    },
    throwOnError: true,
  });
  return data;
}

export function useGetExperimentsQuery(params: ExperimentListParams) {
  const query = useQuery({
    queryKey: queryKeys.experiments.list(params),
    queryFn: () => fetchExperiments(params),
    placeholderData: keepPreviousData,
  });
  return { experiments: query.data, isLoading: query.isLoading, error: query.error } as const;
}
