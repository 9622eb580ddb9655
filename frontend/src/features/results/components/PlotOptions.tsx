// Axis scales and the spread drawn around means, for the results figures (kept in the URL).
import { BAND_TYPES, type BandType, useResultsViewState } from "@/lib/urlState/results";

const BAND_LABELS: Record<BandType, string> = {
  bars: "error bars (std)",
  band: "shaded band (std)",
  none: "means only",
};

export function PlotOptions() {
  const [{ logx, logy, band }, setView] = useResultsViewState();
  return (
    <>
      <label className="inline-check">
        <input
          type="checkbox"
          name="logx"
          checked={logx}
          onChange={(e) => setView({ logx: e.target.checked })}
        />
        log x
      </label>
      <label className="inline-check">
        <input
          type="checkbox"
          name="logy"
          checked={logy}
          onChange={(e) => setView({ logy: e.target.checked })}
        />
        log y
      </label>
      <label>
        Spread
        <select
          name="band"
          value={band}
          onChange={(e) => setView({ band: e.target.value as BandType })}
        >
          {BAND_TYPES.map((b) => (
            <option key={b} value={b}>
              {BAND_LABELS[b]}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
