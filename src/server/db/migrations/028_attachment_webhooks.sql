-- Each attachment of a script may have a webhook of its own (issue 33): a URL and a secret its
-- attacher makes, sees and rotates, which runs that script's webhook handlers on that attachment's
-- server (or its group's servers) only, with that attachment's values and its attacher's rights.
-- No secret, no webhook.
ALTER TABLE service_scripts ADD COLUMN webhook_secret text;
ALTER TABLE group_scripts ADD COLUMN webhook_secret text;
