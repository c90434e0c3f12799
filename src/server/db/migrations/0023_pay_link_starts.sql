CREATE TABLE "pay_link_starts" (
	"key" text PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"claim" uuid NOT NULL,
	"state" text DEFAULT 'starting' NOT NULL,
	"payment_ref" text,
	"answer" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pay_link_starts" ADD CONSTRAINT "pay_link_starts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;