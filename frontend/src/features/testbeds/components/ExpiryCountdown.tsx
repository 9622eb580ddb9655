// Time left until the janitor deletes a testbed, ticking every second.
import { useEffect, useState } from "react";
import { formatCountdown } from "../utils/azureForm";

/** Props of ExpiryCountdown. */
export interface ExpiryCountdownProps {
  expiresAt: string;
  testId: string;
}

export function ExpiryCountdown({ expiresAt, testId }: ExpiryCountdownProps) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = (new Date(expiresAt).getTime() - now) / 1000;
  return (
    <span data-testid={testId} className={left < 1800 ? "error-text" : undefined}>
      {left > 0 ? `Expires in ${formatCountdown(left)}` : "Expired"}
      <span className="hint"> (at {new Date(expiresAt).toLocaleString()})</span>
    </span>
  );
}
