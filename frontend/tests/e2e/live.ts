// Publishing a live event as the worker does, through backend/core/live.py's record_event: on the
// experiment's channel of this e2e database, a progress event also kept in its run's list (the
// live figure reads it), on the Redis scripts/e2e.sh found.
import { execFileSync } from "node:child_process";

const SCRIPT = `
import json, sys, redis
from backend.core.live import record_event
record_event(redis.Redis.from_url(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]))
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
