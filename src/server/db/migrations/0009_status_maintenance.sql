ALTER TABLE "status_subscribers" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "kind" text DEFAULT 'incident' NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "status_subscribers" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "status_subscribers" ADD CONSTRAINT "status_subscribers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_subscribers" ADD CONSTRAINT "status_subscribers_client_id_unique" UNIQUE("client_id");