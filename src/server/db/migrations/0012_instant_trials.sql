CREATE TABLE "trial_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reason" text NOT NULL,
	"network" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"client_id" uuid,
	"network" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"viewer_hash" text,
	"started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trials_lead_id_unique" UNIQUE("lead_id")
);
--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "lead_id" uuid;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_refusals_created_idx" ON "trial_refusals" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "trials_network_idx" ON "trials" USING btree ("network","created_at");--> statement-breakpoint
CREATE INDEX "trials_started_idx" ON "trials" USING btree ("started_at");--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_lead_idx" ON "verification_codes" USING btree ("lead_id","purpose","created_at");