// Publishing a live event as the worker does: to the experiment's channel of this e2e database
// (named by backend/core/live.py, never spelled here), on the Redis scripts/e2e.sh found.
import { execFileSync } from "node:child_process";

const SCRIPT = `
import sys, redis
from backend.core.live import experiment_channel
redis.Redis.from_url(sys.argv[1]).publish(experiment_channel(int(sys.argv[2])), sys.argv[3])
`;

/** Publishes one event for the experiment; throws when Redis refuses it. */
export function publishLiveEvent(redisUrl: string, experimentId: number, payload: object): void {
  if (!process.env.MCSCOPE_DATABASE_URL) {
    throw new Error("MCSCOPE_DATABASE_URL is not set: run through scripts/e2e.sh");
  }
  execFileSync("../.venv/bin/python", [
    "-c",
    SCRIPT,
    redisUrl,
    String(experimentId),
    JSON.stringify(payload),
  ]);
}
