-- Gives experiment :exp finished runs with synthetic, deterministic summaries, so the results
-- view can be tested without a testbed. Shape of a closed system: throughput grows with clients
-- until the worker-dependent capacity, response time follows the interactive law R = N / X.
\set ON_ERROR_STOP on

INSERT INTO runs (experiment_id, configuration_id, repetition, status, attempt, cancel_requested,
                  started_at, finished_at, hosts, tool_versions, commands)
SELECT c.experiment_id, c.id, rep, 'succeeded', 1, false,
       now() - interval '10 minutes', now(), '{}', '{}', '[]'
FROM configurations c, generate_series(1, 3) AS rep
WHERE c.experiment_id = :exp;

WITH m AS (
    SELECT r.id AS run_id,
           (c."values" ->> 'clients_per_thread')::float * 6 AS n,
           least((c."values" ->> 'clients_per_thread')::float * 400,
                 3000 + 40 * (c."values" ->> 'workers')::float)
             * (1 + 0.01 * (r.repetition - 2)) AS x
    FROM runs r JOIN configurations c ON c.id = r.configuration_id
    WHERE r.experiment_id = :exp
)
INSERT INTO run_summaries (run_id, source, request_type, window_start_s, window_end_s, count,
                           throughput, response_time_us, queue_time_us, server_time_us)
SELECT run_id, src.source, 'all', 10, 80, (x * 70)::bigint,
       x * src.scale, n / x * 1e6 * src.rt_scale,
       CASE WHEN src.source LIKE 'middleware%' THEN n / x * 1e6 * 0.4 END,
       CASE WHEN src.source LIKE 'middleware%' THEN n / x * 1e6 * 0.3 END
FROM m, (VALUES ('client:memtier-0', 1.0, 1.0), ('middleware:mw-0', 0.995, 0.8))
        AS src(source, scale, rt_scale);
