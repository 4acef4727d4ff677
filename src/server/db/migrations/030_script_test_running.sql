-- One test per user at a time, kept by the database itself (issue 33): a running test is a row
-- without its completion time, and a unique key allows one such row per user, so starting a test
-- is one statement instead of a transaction holding a lock across four round trips. A test whose
-- process stopped before finishing it counts as given up 60 seconds after it was queued, as the
-- tests list has always read it; it is marked so, and of those still open each user's newest stays.
UPDATE script_tests SET completion_time = queue_time + interval '60 seconds'
 WHERE completion_time IS NULL AND queue_time <= now() - interval '60 seconds';
UPDATE script_tests t SET completion_time = now()
 WHERE completion_time IS NULL
   AND EXISTS (SELECT 1 FROM script_tests n
                WHERE n.user_id = t.user_id AND n.completion_time IS NULL
                  AND (n.queue_time, n.request_id) > (t.queue_time, t.request_id));
CREATE UNIQUE INDEX script_tests_running_key ON script_tests (user_id) WHERE completion_time IS NULL;
