ALTER TABLE "panel_credit_ledger" ALTER COLUMN "cost" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "panel_credit_ledger" ALTER COLUMN "credits_before" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "panel_credit_ledger" ALTER COLUMN "credits_after" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "panel_credit_ledger" ADD COLUMN "note" text DEFAULT '' NOT NULL;