// Live progress over server-sent events (GET /experiments/{id}/events) while an experiment runs.
// Run state changes refresh exactly the cached experiment and its runs; progress stays local.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useReducer, useState } from "react";
import { openEventSource } from "@/lib/auth";
import { queryKeys } from "@/lib/queryKeys";
import { applyEvent, EMPTY_LIVE, type LiveEvent } from "../utils/liveEvents";

const EVENT_TYPES = ["snapshot", "run", "progress"] as const;

export function eventsUrl(experimentId: number): string {
  return `/api/v1/experiments/${experimentId}/events`;
}

export function useExperimentEventsSubscription(experimentId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  const [live, dispatch] = useReducer(applyEvent, EMPTY_LIVE);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const source = openEventSource(eventsUrl(experimentId));
    const onEvent = (type: LiveEvent["type"]) => (e: MessageEvent<string>) => {
      const event = { ...JSON.parse(e.data), type } as LiveEvent;
      dispatch(event);
      // The snapshot comes after the server subscribed: from here on no event is missed.
      if (type === "snapshot") setConnected(true);
      if (type === "run") {
        queryClient.invalidateQueries({
          queryKey: queryKeys.experiments.detail(experimentId),
          exact: true,
        });
        queryClient.invalidateQueries({
          queryKey: [...queryKeys.experiments.detail(experimentId), "runs"],
        });
      }
    };
    const listeners = EVENT_TYPES.map((t) => [t, onEvent(t)] as const);
    for (const [t, l] of listeners) source.addEventListener(t, l);
    // EventSource reconnects by itself; polling covers the gap meanwhile.
    source.onerror = () => setConnected(false);
    return () => {
      for (const [t, l] of listeners) source.removeEventListener(t, l);
      source.close();
      setConnected(false);
    };
  }, [experimentId, enabled, queryClient]);

  return { live, connected } as const;
}
