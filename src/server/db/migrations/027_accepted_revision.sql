-- A keep-updated attachment of someone else's script takes a new revision only once its attacher
-- accepts it (issue 33): an author's new version used to run at once on every server that kept
-- their script updated. The attacher's own scripts still follow every approved version.
-- Attachments of this kind made before are taken as accepting the version they had.
ALTER TABLE service_scripts ADD COLUMN accepted_revision_id uuid REFERENCES script_revisions ON DELETE SET NULL;
UPDATE service_scripts x SET accepted_revision_id = sc.latest_revision_id FROM scripts sc
 WHERE sc.script_id = x.script_id AND x.revision_id IS NULL AND x.attached_by <> sc.user_id;

ALTER TABLE group_scripts ADD COLUMN accepted_revision_id uuid REFERENCES script_revisions ON DELETE SET NULL;
UPDATE group_scripts x SET accepted_revision_id = sc.latest_revision_id FROM scripts sc
 WHERE sc.script_id = x.script_id AND x.revision_id IS NULL AND x.attached_by <> sc.user_id;
