CREATE TABLE "partner_credit_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reseller_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"credits" integer NOT NULL,
	"unit_price" numeric(12, 2) NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"transfer_id" uuid,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "partner_credit_orders_payment_id_unique" UNIQUE("payment_id")
);
--> statement-breakpoint
ALTER TABLE "partner_credit_orders" ADD CONSTRAINT "partner_credit_orders_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_credit_orders" ADD CONSTRAINT "partner_credit_orders_payment_id_captured_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."captured_payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_credit_orders_reseller_idx" ON "partner_credit_orders" USING btree ("reseller_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_credit_orders_status_idx" ON "partner_credit_orders" USING btree ("status");--> statement-breakpoint
-- Paid orders reach every process through the change feed: the one that hears first moves the
-- credits (the ledger key order:<id> makes it once, whichever processes hear it).
CREATE TRIGGER "partner_credit_orders_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "partner_credit_orders" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
