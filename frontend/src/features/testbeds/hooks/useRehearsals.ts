// Rehearsals: the list (polled while one is being built or torn down), Rehearse locally and
// Delete. When a rehearsal changes state its testbed may have been registered, so the testbeds
// are fetched again too.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type RehearsalCreate, type RehearsalsPublic, RehearsalsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

const POLL_MS = 1000;
const BUSY = new Set(["queued", "building", "deleting"]);

function pollWhileBusy(data: RehearsalsPublic | undefined): number | false {
  return data?.data.some((r) => BUSY.has(r.status)) ? POLL_MS : false;
}

async function fetchRehearsals() {
  const { data } = await RehearsalsService.readRehearsals({ throwOnError: true });
  return data;
}

export function useGetRehearsalsQuery() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.rehearsals.all(),
    queryFn: fetchRehearsals,
    refetchInterval: (q) => pollWhileBusy(q.state.data),
  });
  const states = (query.data?.data ?? []).map((r) => `${r.id}:${r.status}`).join(",");
  useEffect(() => {
    if (states) void queryClient.invalidateQueries({ queryKey: queryKeys.testbeds.all() });
  }, [states, queryClient]);
  return { rehearsals: query.data, error: query.error } as const;
}

export function useCreateRehearsalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: RehearsalCreate) => {
      const { data } = await RehearsalsService.createRehearsal({ body, throwOnError: true });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.rehearsals.all() }),
  });
}

export function useDeleteRehearsalMutation(rehearsalId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (typedName: string) => {
      const { data } = await RehearsalsService.deleteRehearsal({
        path: { rehearsal_id: rehearsalId },
        body: { name: typedName },
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.rehearsals.all() }),
  });
}
