CREATE TABLE "auto_renewals" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"provider" text NOT NULL,
	"token_sealed" text,
	"card_label" text DEFAULT '' NOT NULL,
	"consent_text" text DEFAULT '' NOT NULL,
	"consent_at" timestamp with time zone,
	"consent_payment_id" uuid,
	"disabled_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renewal_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"term_end" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"package_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"notice_sent_at" timestamp with time zone,
	"payment_id" uuid,
	"provider_reference" text,
	"last_error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "captured_payments" ADD COLUMN "auto_renew_consent" text;--> statement-breakpoint
ALTER TABLE "auto_renewals" ADD CONSTRAINT "auto_renewals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_renewals" ADD CONSTRAINT "auto_renewals_consent_payment_id_captured_payments_id_fk" FOREIGN KEY ("consent_payment_id") REFERENCES "public"."captured_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_charges" ADD CONSTRAINT "renewal_charges_payment_id_captured_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."captured_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_charges_term_unique" ON "renewal_charges" USING btree ("client_id","term_end");--> statement-breakpoint
CREATE INDEX "renewal_charges_due_idx" ON "renewal_charges" USING btree ("status","next_attempt_at");