CREATE TABLE "refund_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"mark" text,
	"sent_at" timestamp with time zone,
	"provider_reference" text,
	"route" text,
	"request" jsonb NOT NULL,
	"admin_id" uuid,
	"credit_note_id" uuid,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refund_attempts" ADD CONSTRAINT "refund_attempts_payment_id_captured_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."captured_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_attempts_one_open" ON "refund_attempts" USING btree ("payment_id") WHERE state in ('pending', 'made');