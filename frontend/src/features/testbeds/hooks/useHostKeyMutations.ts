// A host's SSH key: ask the server to read what the host offers now (in the background, not
// pinned; the testbeds query polls until the read ends), then pin it once the user has
// compared the fingerprint, sending that fingerprint so another key is refused.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TestbedsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export type HostRef = { testbedId: number; hostId: number };

export function useScanHostKeyMutation({ testbedId, hostId }: HostRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await TestbedsService.scanTestbedHostKey({
        path: { testbed_id: testbedId, host_id: hostId },
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.testbeds.all() }),
  });
}

export function usePinHostKeyMutation({ testbedId, hostId }: HostRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (expectedFingerprint: string) => {
      const { data } = await TestbedsService.pinTestbedHostKey({
        path: { testbed_id: testbedId, host_id: hostId },
        body: { expected_fingerprint: expectedFingerprint },
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.testbeds.all() }),
  });
}
