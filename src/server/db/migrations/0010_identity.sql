CREATE TABLE "verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"client_id" uuid,
	"requester" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "possible_duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "possible_duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_recipient_idx" ON "verification_codes" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "verification_requester_idx" ON "verification_codes" USING btree ("requester","created_at");--> statement-breakpoint
CREATE INDEX "verification_client_idx" ON "verification_codes" USING btree ("client_id","purpose","created_at");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_possible_duplicate_of_clients_id_fk" FOREIGN KEY ("possible_duplicate_of") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- One stored form for WhatsApp numbers (E.164 digits, '27821234567'), the rule of
-- src/shared/whatsapp.ts normaliseWhatsAppNumber written in SQL, for the rows typed before it.
UPDATE "clients" SET "whatsapp" = (CASE WHEN regexp_replace("whatsapp", '\D', '', 'g') = '' THEN ''
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '00%' THEN substr(regexp_replace("whatsapp", '\D', '', 'g'), 3)
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '27%' THEN regexp_replace("whatsapp", '\D', '', 'g')
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '0%' THEN '27' || substr(regexp_replace("whatsapp", '\D', '', 'g'), 2)
  ELSE '27' || regexp_replace("whatsapp", '\D', '', 'g') END) WHERE "whatsapp" <> '';--> statement-breakpoint
UPDATE "leads" SET "whatsapp" = (CASE WHEN regexp_replace("whatsapp", '\D', '', 'g') = '' THEN ''
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '00%' THEN substr(regexp_replace("whatsapp", '\D', '', 'g'), 3)
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '27%' THEN regexp_replace("whatsapp", '\D', '', 'g')
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '0%' THEN '27' || substr(regexp_replace("whatsapp", '\D', '', 'g'), 2)
  ELSE '27' || regexp_replace("whatsapp", '\D', '', 'g') END), "whatsapp_digits" = (CASE WHEN regexp_replace("whatsapp", '\D', '', 'g') = '' THEN ''
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '00%' THEN substr(regexp_replace("whatsapp", '\D', '', 'g'), 3)
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '27%' THEN regexp_replace("whatsapp", '\D', '', 'g')
  WHEN regexp_replace("whatsapp", '\D', '', 'g') LIKE '0%' THEN '27' || substr(regexp_replace("whatsapp", '\D', '', 'g'), 2)
  ELSE '27' || regexp_replace("whatsapp", '\D', '', 'g') END) WHERE "whatsapp" <> '';--> statement-breakpoint
-- A number on two clients was a guess waiting to go wrong: the one whose term runs (else the
-- oldest) keeps it, the others are flagged as possible duplicates for the owner to merge or
-- dismiss (nothing is deleted or blanked).
WITH ranked AS (
  SELECT "id", "whatsapp",
    first_value("id") OVER w AS keeper,
    row_number() OVER w AS n
  FROM "clients"
  WHERE "whatsapp" <> ''
  WINDOW w AS (PARTITION BY "whatsapp"
    ORDER BY ("status" IN ('active', 'grace', 'trial', 'suspended')) DESC, "subscription_end" DESC NULLS LAST, "created_at", "id")
)
UPDATE "clients" c SET "possible_duplicate_of" = ranked.keeper,
  "notes" = trim(c."notes" || E'\n' || 'WhatsApp number also on another client: flagged as a possible duplicate when numbers were made one form.')
FROM ranked WHERE c."id" = ranked."id" AND ranked.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "clients_whatsapp_unique" ON "clients" USING btree ("whatsapp") WHERE whatsapp <> '' and possible_duplicate_of is null and merged_into is null;--> statement-breakpoint
CREATE INDEX "clients_email_idx" ON "clients" USING btree (lower("email"));