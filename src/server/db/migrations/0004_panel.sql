CREATE TABLE "panel_package_map" (
	"package_id" uuid PRIMARY KEY NOT NULL,
	"panel_package_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provisioning_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"action" text NOT NULL,
	"cause_key" text NOT NULL,
	"package_id" uuid,
	"package_name" text DEFAULT '' NOT NULL,
	"trial" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error_status" text DEFAULT '' NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"panel_answer" text DEFAULT '' NOT NULL,
	"instruction" text DEFAULT '' NOT NULL,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provisioning_jobs_cause_key_unique" UNIQUE("cause_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_panel_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"panel_package_id" text NOT NULL,
	"trial" boolean DEFAULT false NOT NULL,
	"exp_date" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_panel_lines_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "panel_line_id" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_sync_issue" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "panel_package_map" ADD CONSTRAINT "panel_package_map_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provisioning_jobs" ADD CONSTRAINT "provisioning_jobs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provisioning_jobs" ADD CONSTRAINT "provisioning_jobs_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provisioning_due_idx" ON "provisioning_jobs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "provisioning_client_idx" ON "provisioning_jobs" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE TRIGGER "provisioning_jobs_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "provisioning_jobs" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
