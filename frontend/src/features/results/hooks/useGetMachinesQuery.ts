// The machines per configuration (hosts' whole CPU against their cores, mcscope's processes'
// share per role, network), over each run's stable window or the re-cut one.
import { useQuery } from "@tanstack/react-query";
import { ExperimentRunsService } from "@/api";
import { queryKeys, type ResultWindow, windowQuery } from "@/lib/queryKeys";

async function fetchMachines(id: number, window: ResultWindow | null) {
  const { data } = await ExperimentRunsService.readMachines({
    path: { experiment_id: id },
    query: { ...windowQuery(window) },
    throwOnError: true,
  });
  return data;
}

export function useGetMachinesQuery(id: number, window: ResultWindow | null) {
  const query = useQuery({
    queryKey: queryKeys.experiments.machines(id, window),
    queryFn: () => fetchMachines(id, window),
  });
  return { machines: query.data, error: query.error } as const;
}
