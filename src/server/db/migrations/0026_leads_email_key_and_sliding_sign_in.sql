DROP INDEX "leads_one_trial_per_email";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "email_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limits" ADD COLUMN "hits" timestamp with time zone[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Rows typed before: their mailbox, as shared/contact.ts mailboxKey computes it. Of earlier free
-- trials that turn out to share a mailbox, the first keeps it and the later ones get a key of
-- their own (nothing deleted; the mailbox is still used up by the first).
WITH typed AS (
  SELECT id, form_type, created_at, lower(trim(email)) AS address,
    substring(lower(trim(email)) from '^(.*)@[^@]*$') AS local,
    CASE WHEN substring(lower(trim(email)) from '@([^@]*)$') = 'googlemail.com' THEN 'gmail.com'
      ELSE substring(lower(trim(email)) from '@([^@]*)$') END AS domain
  FROM "leads"
), untagged AS (
  SELECT id, form_type, created_at, address, domain,
    CASE WHEN domain = 'gmail.com' THEN replace(split_part(local, '+', 1), '.', '')
      WHEN domain IN ('outlook.com', 'hotmail.com', 'live.com', 'icloud.com', 'me.com', 'protonmail.com', 'proton.me', 'fastmail.com')
        THEN split_part(local, '+', 1)
      ELSE local END AS local
  FROM typed
), keyed AS (
  SELECT id, CASE WHEN coalesce(local, '') = '' THEN address ELSE local || '@' || domain END AS key, form_type, created_at
  FROM untagged
), ranked AS (
  SELECT id, key,
    CASE WHEN form_type = 'free-trial' THEN row_number() OVER (PARTITION BY form_type, key ORDER BY created_at, id) ELSE 1 END AS nth
  FROM keyed
)
UPDATE "leads" SET "email_key" = CASE WHEN ranked.nth = 1 THEN ranked.key ELSE 'duplicate:' || ranked.id::text END
FROM ranked WHERE "leads".id = ranked.id;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_one_trial_per_email" ON "leads" USING btree ("email_key") WHERE form_type = 'free-trial';
