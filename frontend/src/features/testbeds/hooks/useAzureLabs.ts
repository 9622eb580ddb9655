// Azure labs: the list (polled while one is being created, stopped, started or deleted, so
// the page shows each resource as it is made), the New Azure testbed page's defaults, the plan
// shown before Create, and the actions. When a lab changes state its testbed may have been
// registered or deleted, so the testbeds are fetched again too.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type AzureLabCreate, type AzureLabsPublic, AzureLabsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";
import { BUSY } from "../utils/azureForm";

const POLL_MS = 1000;

function pollWhileBusy(data: AzureLabsPublic | undefined): number | false {
  return data?.data.some((lab) => BUSY.has(lab.status)) ? POLL_MS : false;
}

async function fetchLabs() {
  const { data } = await AzureLabsService.readAzureLabs({ throwOnError: true });
  return data;
}

async function fetchDefaults() {
  const { data } = await AzureLabsService.readAzureLabDefaults({ throwOnError: true });
  return data;
}

export function useGetAzureLabsQuery() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.azureLabs.all(),
    queryFn: fetchLabs,
    refetchInterval: (q) => pollWhileBusy(q.state.data),
  });
  const states = (query.data?.data ?? []).map((l) => `${l.id}:${l.status}`).join(",");
  useEffect(() => {
    if (states) void queryClient.invalidateQueries({ queryKey: queryKeys.testbeds.all() });
  }, [states, queryClient]);
  return { labs: query.data, isLoading: query.isLoading, error: query.error } as const;
}

async function fetchStates() {
  const { data } = await AzureLabsService.readAzureLabStates({ throwOnError: true });
  return data;
}

/** The lab's states and transitions, as the API's one table has them (never changes). */
export function useGetAzureLabStatesQuery() {
  const query = useQuery({
    queryKey: queryKeys.azureLabs.states(),
    queryFn: fetchStates,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { states: query.data, error: query.error } as const;
}

export function useGetAzureLabDefaultsQuery() {
  const query = useQuery({ queryKey: queryKeys.azureLabs.defaults(), queryFn: fetchDefaults });
  return { defaults: query.data, isLoading: query.isLoading, error: query.error } as const;
}

export function usePlanAzureLabMutation() {
  return useMutation({
    mutationFn: async (body: AzureLabCreate) => {
      const { data } = await AzureLabsService.planAzureLab({ body, throwOnError: true });
      return data;
    },
  });
}

export function useCreateAzureLabMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AzureLabCreate) => {
      const { data } = await AzureLabsService.createAzureLab({ body, throwOnError: true });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.azureLabs.all() }),
  });
}

export type LabAction = "stop" | "start";

export function useAzureLabActionMutation(labId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: LabAction) => {
      const path = { lab_id: labId };
      const { data } =
        action === "stop"
          ? await AzureLabsService.stopAzureLab({ path, throwOnError: true })
          : await AzureLabsService.startAzureLab({ path, throwOnError: true });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.azureLabs.all() }),
  });
}

export function useDeleteAzureLabMutation(labId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (typedName: string) => {
      const { data } = await AzureLabsService.deleteAzureLab({
        path: { lab_id: labId },
        body: { name: typedName },
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.azureLabs.all() }),
  });
}
