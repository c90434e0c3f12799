CREATE TABLE "client_lifecycle_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"cause" text NOT NULL,
	"cause_key" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"actor" text DEFAULT '' NOT NULL,
	"admin_id" uuid,
	"status_before" text,
	"status_after" text NOT NULL,
	"end_before" timestamp with time zone,
	"end_after" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_lifecycle_events_cause_key_unique" UNIQUE("cause_key")
);
--> statement-breakpoint
ALTER TABLE "clients" ALTER COLUMN "status" SET DEFAULT 'pending';--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "immediate_start_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "client_created" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "suspended_from" text;--> statement-breakpoint
ALTER TABLE "client_lifecycle_events" ADD CONSTRAINT "client_lifecycle_events_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_lifecycle_events" ADD CONSTRAINT "client_lifecycle_events_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lifecycle_client_idx" ON "client_lifecycle_events" USING btree ("client_id","created_at");--> statement-breakpoint
-- Terms come only from money or a reasoned grant: a running status with no end date was a
-- free term that never expired. Such clients wait for their first payment (or an admin's grant).
UPDATE "clients" SET "status" = 'pending' WHERE "status" IN ('active', 'trial') AND "subscription_end" IS NULL;
