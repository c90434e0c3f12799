CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"direction" text NOT NULL,
	"wamid" text,
	"type" text DEFAULT 'text' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"media_id" text,
	"media_mime" text,
	"profile_name" text DEFAULT '' NOT NULL,
	"client_id" uuid,
	"lead_id" uuid,
	"status" text,
	"delivery_status" text,
	"delivery_updated_at" timestamp with time zone,
	"error" text,
	"admin_id" uuid,
	"read_at" timestamp with time zone,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_wamid_idx" ON "whatsapp_messages" USING btree ("wamid") WHERE wamid is not null;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_number_idx" ON "whatsapp_messages" USING btree ("number","sent_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_sent_idx" ON "whatsapp_messages" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_unread_idx" ON "whatsapp_messages" USING btree ("number") WHERE direction = 'in' and read_at is null;--> statement-breakpoint
CREATE TRIGGER "whatsapp_messages_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "whatsapp_messages" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();