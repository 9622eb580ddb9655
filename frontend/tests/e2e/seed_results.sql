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

-- Per-second series of every run: 90 s, a 10 s ramp up and down around the stable window (whose
-- seconds carry the summary's throughput), response time higher while the load ramps.
WITH m AS (
    SELECT r.id AS run_id,
           (c."values" ->> 'clients_per_thread')::float * 6 AS n,
           least((c."values" ->> 'clients_per_thread')::float * 400,
                 3000 + 40 * (c."values" ->> 'workers')::float)
             * (1 + 0.01 * (r.repetition - 2)) AS x
    FROM runs r JOIN configurations c ON c.id = r.configuration_id
    WHERE r.experiment_id = :exp
)
INSERT INTO run_series (run_id, source, request_type, start_unix, throughput, response_time_us)
SELECT run_id, src.source, 'all', 1.7e9 + src.offset_s,
       ARRAY(SELECT x * src.scale * least(1, (i + 1) / 10.0, (90 - i) / 10.0)
             FROM generate_series(0, 89) AS i ORDER BY i),
       ARRAY(SELECT n / x * 1e6 * src.rt_scale * (2 - least(1, (i + 1) / 10.0, (90 - i) / 10.0))
             FROM generate_series(0, 89) AS i ORDER BY i)
FROM m, (VALUES ('client:memtier-0', 0.0, 1.0, 1.0), ('middleware:mw-0', 0.4, 0.995, 0.8))
        AS src(source, offset_s, scale, rt_scale);

-- Latency histograms, 100 us buckets up to 60 ms: 10 requests in each of the 20 buckets around
-- the configuration's response time R (to 100 us), so p50 = R, p90 = R + 800, p99 = R + 1000
-- (the upper edge of the bucket holding the rank, the one percentile rule).
WITH m AS (
    SELECT r.id AS run_id,
           round((c."values" ->> 'clients_per_thread')::float * 6
                 / least((c."values" ->> 'clients_per_thread')::float * 400,
                         3000 + 40 * (c."values" ->> 'workers')::float) * 1e4) * 100 AS r_us
    FROM runs r JOIN configurations c ON c.id = r.configuration_id
    WHERE r.experiment_id = :exp
)
INSERT INTO run_histograms (run_id, source, request_type, metric, upper_bounds_us, counts,
                            overflow)
SELECT run_id, src.source, 'all', CAST(src.metric AS histogram_metric),
       ARRAY(SELECT 100.0 * i FROM generate_series(1, 600) AS i ORDER BY i),
       ARRAY(SELECT CASE WHEN 100 * i > r_us * src.scale - 1000
                          AND 100 * i <= r_us * src.scale + 1000 THEN 10 ELSE 0 END
             FROM generate_series(1, 600) AS i ORDER BY i),
       0
FROM m, (VALUES ('client:memtier-0', 'client', 1.0), ('middleware:mw-0', 'total', 0.8))
        AS src(source, metric, scale);
