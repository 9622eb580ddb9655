// The MVA station editor's rows, their request body (µs -> s), and the published check as default.
import type { MvaPublic, MvaRequest, StationKind } from "@/api";
import { TIME_UNITS_PER_S } from "@/lib/labels";

export interface StationRow {
  name: string;
  kind: StationKind;
  /** Service time per visit in µs (TIME_UNIT), as every time of the product. */
  service_us: number;
  visits: number;
  servers: number;
}

/** One middleware serving gets (DOMAIN.md, Octave check): X = 2,940/s at N = 24. */
export const DEFAULT_STATIONS: StationRow[] = [
  { name: "network (to)", kind: "delay", service_us: 300, visits: 1, servers: 1 },
  { name: "net thread", kind: "queue", service_us: 86.61008, visits: 1, servers: 1 },
  { name: "worker pool", kind: "multi", service_us: 1094.205, visits: 1, servers: 64 },
  { name: "memcached", kind: "queue", service_us: 1e6 / 2940, visits: 1, servers: 1 },
  { name: "network (back)", kind: "delay", service_us: 300, visits: 1, servers: 1 },
];

export function toMvaRequest(
  stations: StationRow[],
  population: number,
  thinkUs: number,
): MvaRequest {
  return {
    stations: stations.map((s) => ({
      name: s.name,
      kind: s.kind,
      service_time_s: s.service_us / TIME_UNITS_PER_S,
      visits: s.visits,
      servers: s.kind === "multi" ? s.servers : 1,
    })),
    population,
    think_time_s: thinkUs / TIME_UNITS_PER_S,
    include_bounds: true,
  };
}

export interface StationAtN {
  name: string;
  throughput: number;
  utilization: number;
  probBusy: number | null;
  residenceUs: number;
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
    residenceUs: (s.residence_time_s[i] ?? Number.NaN) * TIME_UNITS_PER_S,
    queueLength: s.queue_length[i] ?? Number.NaN,
  }));
}
