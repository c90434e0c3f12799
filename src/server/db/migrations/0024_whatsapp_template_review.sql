ALTER TABLE "whatsapp_templates" ADD COLUMN "category" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "body_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "meta_id" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "meta_status" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "rejected_reason" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "meta_error" text;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD COLUMN "checked_at" timestamp with time zone;