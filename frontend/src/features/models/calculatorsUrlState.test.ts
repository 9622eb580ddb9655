import { createLoader, createSerializer } from "nuqs";
import { describe, expect, it } from "vitest";
import { mvaSearchParams, parseStations, queueSearchParams } from "./calculatorsUrlState";
import { DEFAULT_STATIONS, type StationRow } from "./utils/mva";

describe("Models calculators URL state", () => {
  it("round-trips queue inputs and the MVA network, stations included", () => {
    const queue = { lambda: 1200.5, mu: 3000, servers: 4 };
    const q = createSerializer(queueSearchParams(true))(queue);
    expect(createLoader(queueSearchParams(true))(q)).toEqual(queue);
    const stations: StationRow[] = [
      { name: "wire", kind: "delay", service_us: 0.25, visits: 1, servers: 1 },
    ];
    const mva = { stations, population: 96, think: 1.5 };
    const m = createSerializer(mvaSearchParams)(mva);
    expect(createLoader(mvaSearchParams)(m)).toEqual(mva);
  });

  it("falls back to the default network when a station is malformed", () => {
    expect(
      parseStations([{ name: "x", kind: "teleport", service_us: 1, visits: 1, servers: 1 }]),
    ).toBeNull();
    expect(createLoader(mvaSearchParams)("?stations=%5B1%5D").stations).toEqual(DEFAULT_STATIONS);
  });
});
