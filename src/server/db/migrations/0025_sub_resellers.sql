CREATE TABLE "reseller_credit_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reseller_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"credits" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"cause" text NOT NULL,
	"actor" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"partner_before" integer,
	"partner_after" integer,
	"owner_before" integer,
	"owner_after" integer,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "reseller_credit_transfers_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
CREATE TABLE "reseller_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reseller_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"name" text NOT NULL,
	"whatsapp" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"package_id" uuid,
	"package_name" text DEFAULT '' NOT NULL,
	"panel_package_id" text DEFAULT '' NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"panel_line_id" text,
	"line_username" text DEFAULT '' NOT NULL,
	"line_password" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_lines_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
CREATE TABLE "reseller_password_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reseller_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_password_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "reseller_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"reseller_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "resellers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"whatsapp" text DEFAULT '' NOT NULL,
	"username" text NOT NULL,
	"panel_user_id" text,
	"password_hash" text,
	"status" text DEFAULT 'active' NOT NULL,
	"create_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resellers_username_unique" UNIQUE("username"),
	CONSTRAINT "resellers_create_key_unique" UNIQUE("create_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_panel_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"member_group_id" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_panel_users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "reseller_credit_transfers" ADD CONSTRAINT "reseller_credit_transfers_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_lines" ADD CONSTRAINT "reseller_lines_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_lines" ADD CONSTRAINT "reseller_lines_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_password_tokens" ADD CONSTRAINT "reseller_password_tokens_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_sessions" ADD CONSTRAINT "reseller_sessions_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reseller_credit_transfers_reseller_idx" ON "reseller_credit_transfers" USING btree ("reseller_id","created_at");--> statement-breakpoint
CREATE INDEX "reseller_lines_reseller_idx" ON "reseller_lines" USING btree ("reseller_id","created_at");--> statement-breakpoint
CREATE INDEX "reseller_sessions_reseller_idx" ON "reseller_sessions" USING btree ("reseller_id");