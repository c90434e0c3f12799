-- Change feed: every watched table announces row changes on the 'table_changes' channel.
CREATE OR REPLACE FUNCTION streamdesk_notify_change() RETURNS trigger AS $$
DECLARE row_id text;
BEGIN
  IF TG_OP = 'DELETE' THEN row_id := OLD.id::text; ELSE row_id := NEW.id::text; END IF;
  PERFORM pg_notify('table_changes', json_build_object('table', TG_TABLE_NAME, 'op', TG_OP, 'id', row_id)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER "clients_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "clients" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "captured_payments_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "captured_payments" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "content_requests_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "content_requests" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "packages_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "packages" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "leads_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "leads" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "notices_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "notices" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "image_registry_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "image_registry" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "homepage_content_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "homepage_content" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "site_branding_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "site_branding" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "downloads_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "downloads" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "pricing_specials_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "pricing_specials" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "banners_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "banners" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "site_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "site_settings" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "testimonials_managed_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "testimonials_managed" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "system_components_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "system_components" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "status_checks_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "status_checks" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "incidents_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "incidents" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "kb_articles_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "kb_articles" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "releases_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "releases" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
CREATE TRIGGER "trial_blackout_days_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "trial_blackout_days" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
--> statement-breakpoint
-- Knowledge base full-text search (English stemming).
CREATE INDEX "kb_articles_fts_idx" ON "kb_articles" USING gin (to_tsvector('english', coalesce("title",'') || ' ' || coalesce("summary",'') || ' ' || coalesce("body",'')));
