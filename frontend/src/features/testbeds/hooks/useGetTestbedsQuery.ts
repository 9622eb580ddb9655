// Registered testbeds with their hosts, and the tools the newest runs found on each. While a
// host's SSH key is being read (in the background, after registration or Re-pin), the list is
// polled until the read ends; so is it while a testbed's network is being measured.
import { useQuery } from "@tanstack/react-query";
import { type HostPublic, type TestbedsPublic, TestbedsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

const POLL_MS = 1000;

export function keyReadUnderWay(host: Pick<HostPublic, "scan_status">): boolean {
  return host.scan_status === "pinning" || host.scan_status === "scanning";
}

function pollWhileReading(data: TestbedsPublic | undefined): number | false {
  const busy = (tb: TestbedsPublic["data"][number]) =>
    tb.hosts.some(keyReadUnderWay) || tb.network?.status === "measuring";
  return data?.data.some(busy) ? POLL_MS : false;
}

async function fetchTestbeds() {
  const { data } = await TestbedsService.readTestbeds({ throwOnError: true });
  return data;
}

async function fetchTools() {
  const { data } = await TestbedsService.readTestbedTools({ throwOnError: true });
  return data;
}

export function useGetTestbedsQuery() {
  const query = useQuery({
    queryKey: queryKeys.testbeds.all(),
    queryFn: fetchTestbeds,
    refetchInterval: (q) => pollWhileReading(q.state.data),
  });
  return { testbeds: query.data, isLoading: query.isLoading, error: query.error } as const;
}

export function useGetTestbedToolsQuery() {
  const query = useQuery({ queryKey: [...queryKeys.testbeds.all(), "tools"], queryFn: fetchTools });
  return { tools: query.data, isLoading: query.isLoading, error: query.error } as const;
}
