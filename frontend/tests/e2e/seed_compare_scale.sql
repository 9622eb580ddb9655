-- Scales the seeded throughput of experiment :exp's configurations at :workers workers by
-- :scale (response time by 1 / :scale, as the interactive law keeps N fixed), so two seeded
-- experiments differ by a known factor there. Repetition noise (+-1%) is kept.
\set ON_ERROR_STOP on

UPDATE run_summaries s
SET throughput = s.throughput * :scale, response_time_us = s.response_time_us / :scale
FROM runs r JOIN configurations c ON c.id = r.configuration_id
WHERE s.run_id = r.id AND r.experiment_id = :exp
  AND (c."values" ->> 'workers')::int = :workers;
