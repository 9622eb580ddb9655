// Measure a testbed's network now (in the background: the testbeds query polls while the
// testbed shows "measuring"): round trips, and with bandwidth iperf3 uploads too.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TestbedsService } from "@/api";
import { queryKeys } from "@/lib/queryKeys";

export function useMeasureNetworkMutation(testbedId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (bandwidth: boolean) => {
      const { data } = await TestbedsService.measureTestbedNetwork({
        path: { testbed_id: testbedId },
        body: { bandwidth },
        throwOnError: true,
      });
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.testbeds.all() }),
  });
}
