// The expanded grid of an experiment, with every point's effective parameters.
import { useQuery } from "@tanstack/react-query";
import { ExperimentsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchConfigurations(id: number) {
  const { data } = await ExperimentsService.readConfigurations({
    path: { experiment_id: id },
    throwOnError: true,
  });
  return data;
}

export function useGetConfigurationsQuery(id: number) {
  const query = useQuery({
    queryKey: queryKeys.experiments.configurations(id),
    queryFn: () => fetchConfigurations(id),
  });
  return { configurations: query.data, isLoading: query.isLoading, error: query.error } as const;
}
