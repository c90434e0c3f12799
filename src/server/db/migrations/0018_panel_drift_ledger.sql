CREATE TABLE "panel_drift" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid,
	"panel_line_id" text NOT NULL,
	"kind" text NOT NULL,
	"ours" text DEFAULT '' NOT NULL,
	"panel" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"direction" text DEFAULT '' NOT NULL,
	"fixed_by" text DEFAULT '' NOT NULL,
	"fixed_at" timestamp with time zone,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "panel_credit_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid,
	"client_id" uuid,
	"action" text NOT NULL,
	"cause_key" text NOT NULL,
	"attempt" integer NOT NULL,
	"panel_package_id" text DEFAULT '' NOT NULL,
	"cost" integer NOT NULL,
	"credits_before" integer NOT NULL,
	"credits_after" integer NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "panel_drift" ADD CONSTRAINT "panel_drift_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "panel_credit_ledger" ADD CONSTRAINT "panel_credit_ledger_job_id_provisioning_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."provisioning_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "panel_credit_ledger" ADD CONSTRAINT "panel_credit_ledger_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "panel_drift_open_idx" ON "panel_drift" USING btree ("panel_line_id","kind") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "panel_drift_status_idx" ON "panel_drift" USING btree ("status","found_at");--> statement-breakpoint
CREATE UNIQUE INDEX "panel_credit_ledger_once_idx" ON "panel_credit_ledger" USING btree ("cause_key","attempt");--> statement-breakpoint
CREATE INDEX "panel_credit_ledger_created_idx" ON "panel_credit_ledger" USING btree ("created_at");
