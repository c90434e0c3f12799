CREATE TABLE "auto_renew_card_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"old_token_sealed" text,
	"cancel_tried_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auto_renew_card_changes" ADD CONSTRAINT "auto_renew_card_changes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_renew_card_changes" ADD CONSTRAINT "auto_renew_card_changes_payment_id_captured_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."captured_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_renew_card_changes_payment_unique" ON "auto_renew_card_changes" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "auto_renew_card_changes_cancel_idx" ON "auto_renew_card_changes" USING btree ("status") WHERE "auto_renew_card_changes"."old_token_sealed" is not null;