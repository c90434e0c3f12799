CREATE TABLE "sandbox_paylinks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"external_transaction_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"callback_url" text NOT NULL,
	"success_url" text NOT NULL,
	"failure_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_paylinks_external_transaction_id_unique" UNIQUE("external_transaction_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "leads_one_trial_per_whatsapp" ON "leads" USING btree ("whatsapp_digits") WHERE form_type = 'free-trial';--> statement-breakpoint
CREATE UNIQUE INDEX "leads_one_trial_per_email" ON "leads" USING btree (lower("email")) WHERE form_type = 'free-trial';