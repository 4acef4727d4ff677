-- Who attached a script to a server or group (issue 33): a run acts with that person's rights on
-- that server (its game actions need their control of the server, its buckets their access), never
-- the script author's. Attachments made before are taken as made by the server's or group's owner.
-- An attacher whose account goes takes their attachments with it: a run must act as somebody.
ALTER TABLE service_scripts ADD COLUMN attached_by uuid REFERENCES users ON DELETE CASCADE;
UPDATE service_scripts ss SET attached_by = s.user_id FROM services s WHERE s.service_id = ss.service_id;
ALTER TABLE service_scripts ALTER COLUMN attached_by SET NOT NULL;

ALTER TABLE group_scripts ADD COLUMN attached_by uuid REFERENCES users ON DELETE CASCADE;
UPDATE group_scripts gs SET attached_by = g.user_id FROM groups g WHERE g.group_id = gs.group_id;
ALTER TABLE group_scripts ALTER COLUMN attached_by SET NOT NULL;
