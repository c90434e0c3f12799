ALTER TABLE "clients" ADD COLUMN "line_type" text DEFAULT 'm3u' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_mac" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "line_type" text DEFAULT 'm3u' NOT NULL;--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "line_mac" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE TABLE "line_mac_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"old_mac" text NOT NULL,
	"new_mac" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "line_mac_changes_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
ALTER TABLE "line_mac_changes" ADD CONSTRAINT "line_mac_changes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_mac_changes_client_idx" ON "line_mac_changes" USING btree ("client_id","created_at");--> statement-breakpoint
ALTER TABLE "panel_package_map" ADD COLUMN "bouquets" jsonb DEFAULT '[]'::jsonb NOT NULL;
