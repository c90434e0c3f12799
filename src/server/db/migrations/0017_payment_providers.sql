ALTER TABLE "captured_payments" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_unique" ON "captured_payments" USING btree ("provider","provider_payment_id") WHERE provider_payment_id is not null;
