CREATE TABLE "reseller_line_renewals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"line_id" uuid NOT NULL,
	"reseller_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_before" timestamp with time zone,
	"expires_after" timestamp with time zone,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_line_renewals_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
ALTER TABLE "reseller_lines" ADD COLUMN "switched_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reseller_line_renewals" ADD CONSTRAINT "reseller_line_renewals_line_id_reseller_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."reseller_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_line_renewals" ADD CONSTRAINT "reseller_line_renewals_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reseller_line_renewals_line_idx" ON "reseller_line_renewals" USING btree ("line_id","created_at");