// The MVA station editor's rows, their request body (ms -> s), and the published check as default.
import type { MvaPublic, MvaRequest, StationKind } from "@/api";

export interface StationRow {
  name: string;
  kind: StationKind;
  /** Service time per visit in milliseconds, as the reports quote it. */
  service_ms: number;
  visits: number;
  servers: number;
}

/** One middleware serving gets (DOMAIN.md, Octave check): X = 2,940/s at N = 24. */
export const DEFAULT_STATIONS: StationRow[] = [
  { name: "network (to)", kind: "delay", service_ms: 0.3, visits: 1, servers: 1 },
  { name: "net thread", kind: "queue", service_ms: 0.08661008, visits: 1, servers: 1 },
  { name: "worker pool", kind: "multi", service_ms: 1.094205, visits: 1, servers: 64 },
  { name: "memcached", kind: "queue", service_ms: 1000 / 2940, visits: 1, servers: 1 },
  { name: "network (back)", kind: "delay", service_ms: 0.3, visits: 1, servers: 1 },
];

export function toMvaRequest(
  stations: StationRow[],
  population: number,
  thinkMs: number,
): MvaRequest {
  return {
    stations: stations.map((s) => ({
      name: s.name,
      kind: s.kind,
      service_time_s: s.service_ms / 1000,
      visits: s.visits,
      servers: s.kind === "multi" ? s.servers : 1,
    })),
    population,
    think_time_s: thinkMs / 1000,
    include_bounds: true,
  };
}

export interface StationAtN {
  name: string;
  throughput: number;
  utilization: number;
  probBusy: number | null;
  residenceMs: number;
  queueLength: number;
}

/** Every station's figures at the largest population solved. */
export function stationsAtMax(result: MvaPublic): StationAtN[] {
  const i = result.populations.length - 1;
  return result.stations.map((s) => ({
    name: s.name,
    throughput: s.throughput_per_s[i] ?? Number.NaN,
    utilization: s.utilization_per_server[i] ?? Number.NaN,
    probBusy: s.prob_busy?.[i] ?? null,
    residenceMs: (s.residence_time_s[i] ?? Number.NaN) * 1000,
    queueLength: s.queue_length[i] ?? Number.NaN,
  }));
}
