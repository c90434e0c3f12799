CREATE TABLE "whatsapp_templates" (
	"kind" text PRIMARY KEY NOT NULL,
	"template_name" text NOT NULL,
	"language_code" text DEFAULT 'en' NOT NULL,
	"params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_windows" (
	"number" text PRIMARY KEY NOT NULL,
	"last_inbound_at" timestamp with time zone NOT NULL,
	"last_message_id" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "wa_link" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "secret_enc" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "template_vars" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "sent_via" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "wamid" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivery_updated_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_wamid_idx" ON "outbox" USING btree ("wamid") WHERE wamid is not null;