// A host's pinned SSH key on the Testbeds page: its fingerprint (to compare with
// `ssh-keygen -lf` on the host) and Re-pin, which has the server read the key the host offers
// now (in the background: the page polls until the read ends) and pins it only after the user
// confirms the fingerprint shown beside the pinned one.
import { useEffect } from "react";
import type { HostPublic } from "@/api";
import { handleError, showSuccess } from "@/components/common/handleError";
import { keyReadUnderWay } from "../hooks/useGetTestbedsQuery";
import { usePinHostKeyMutation, useScanHostKeyMutation } from "../hooks/useHostKeyMutations";

const SOURCE: Record<string, string> = {
  scanned: "read from the host",
  supplied: "given at registration",
  known_hosts: "pinned at first contact (earlier version)",
};

export function HostKeyCell({ testbedId, host }: { testbedId: number; host: HostPublic }) {
  const ref = { testbedId, hostId: host.id };
  const scan = useScanHostKeyMutation(ref);
  const pin = usePinHostKeyMutation(ref);
  // The user asked for a read on this page (scan.data: the host as the request left it):
  // its outcome shows once the listed host has moved past that state.
  const asked = scan.data !== undefined;
  const stale =
    scan.data !== undefined &&
    keyReadUnderWay(scan.data) &&
    !keyReadUnderWay(host) &&
    host.scanned_at === scan.data.scanned_at;
  const reading = scan.isPending || keyReadUnderWay(host) || stale;
  useEffect(() => {
    if (scan.error) handleError(scan.error);
  }, [scan.error]);
  useEffect(() => {
    if (pin.error) handleError(pin.error);
  }, [pin.error]);
  useEffect(() => {
    if (asked && !reading && host.scan_status === "failed") {
      handleError(new Error(host.scan_error ?? "the key could not be read"));
      scan.reset();
    }
  }, [asked, reading, host.scan_status, host.scan_error, scan.reset]);
  const offered = asked && !reading && host.scan_status === "read" ? host : null;
  return (
    <div data-testid={`host-key-${host.name}`}>
      {host.host_key_fingerprint ? (
        <>
          <code className="fingerprint">{host.host_key_fingerprint}</code>
          <div className="hint">
            {SOURCE[host.host_key_source ?? ""] ?? host.host_key_source}
            {host.host_key_pinned_at
              ? `, ${new Date(host.host_key_pinned_at).toLocaleString()}`
              : ""}
          </div>
        </>
      ) : (
        <div className="warning" data-testid="host-key-missing">
          Not pinned: runs on this host fail until its key is pinned.
          {host.scan_status === "failed" && host.scan_error && (
            <div className="hint">{host.scan_error}</div>
          )}
        </div>
      )}
      {offered ? (
        <div className="card inset" data-testid="host-key-offered">
          {offered.scanned_matches_pinned ? (
            <p>The host offers the pinned key.</p>
          ) : (
            <>
              <p>
                The host offers{" "}
                <code className="fingerprint">{offered.scanned_key_fingerprint}</code>
                {host.host_key_fingerprint ? " instead of the pinned key." : "."} Compare it with{" "}
                <code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code> on the host.
              </p>
              <button
                type="button"
                disabled={pin.isPending}
                onClick={() =>
                  pin.mutate(offered.scanned_key_fingerprint ?? "", {
                    onSuccess: () => {
                      scan.reset();
                      showSuccess(`${host.name}: key pinned`);
                    },
                  })
                }
              >
                Pin this key
              </button>{" "}
            </>
          )}
          <button type="button" className="link" onClick={() => scan.reset()}>
            {offered.scanned_matches_pinned ? "Close" : "Cancel"}
          </button>
        </div>
      ) : (
        <button type="button" className="link" disabled={reading} onClick={() => scan.mutate()}>
          {reading ? "Reading the key…" : host.host_key ? "Re-pin" : "Pin key"}
        </button>
      )}
    </div>
  );
}
