// Registered testbeds with their hosts, and the tools the newest runs found on each.
import { useQuery } from "@tanstack/react-query";
import { TestbedsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

async function fetchTestbeds() {
  const { data } = await TestbedsService.readTestbeds({ throwOnError: true });
  return data;
}

async function fetchTools() {
  const { data } = await TestbedsService.readTestbedTools({ throwOnError: true });
  return data;
}

export function useGetTestbedsQuery() {
  const query = useQuery({ queryKey: queryKeys.testbeds.all(), queryFn: fetchTestbeds });
  return { testbeds: query.data, isLoading: query.isLoading, error: query.error } as const;
}

export function useGetTestbedToolsQuery() {
  const query = useQuery({ queryKey: [...queryKeys.testbeds.all(), "tools"], queryFn: fetchTools });
  return { tools: query.data, isLoading: query.isLoading, error: query.error } as const;
}
