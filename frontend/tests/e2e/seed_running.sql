-- Puts experiment :exp in the middle of a run: configuration 0 running, the others queued.
\set ON_ERROR_STOP on

INSERT INTO runs (experiment_id, configuration_id, repetition, status, attempt, cancel_requested,
                  started_at, hosts, tool_versions, commands)
SELECT c.experiment_id, c.id, 1,
       CASE WHEN c.index = 0 THEN 'running' ELSE 'queued' END::run_status, 1, false,
       CASE WHEN c.index = 0 THEN now() END, '{}', '{}', '[]'
FROM configurations c
WHERE c.experiment_id = :exp;
