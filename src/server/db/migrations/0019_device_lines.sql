ALTER TABLE "clients" ADD COLUMN "line_type" text DEFAULT 'm3u' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "line_mac" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "line_type" text DEFAULT 'm3u' NOT NULL;--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "line_mac" text DEFAULT '' NOT NULL;
