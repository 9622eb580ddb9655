// Units of the network measurements as shown: round trips in ms, bandwidth in Mbit/s.

/** A round trip given in µs, shown in ms ("–" when not measured). */
export function formatRtt(us: number | null | undefined): string {
  if (us === null || us === undefined) return "–";
  return `${(us / 1000).toFixed(us < 10_000 ? 3 : 1)} ms`;
}

/** A bandwidth in Mbit/s (10^6 bit/s, as iperf3 prints it). */
export function formatMbit(mbit: number): string {
  return `${mbit.toFixed(mbit < 100 ? 1 : 0)} Mbit/s`;
}
