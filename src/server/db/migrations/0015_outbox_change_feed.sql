-- Outbound messages on the change feed (issue 26): the inbox shows each message we sent a number
-- with its delivery state (sent, delivered, read, failed from the Cloud API's webhook; owner,
-- rerouted from the worker), so an open conversation follows those changes live instead of polling.
-- The payload is the row's id only, and the stream gives the table to admin sessions only.
CREATE TRIGGER "outbox_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "outbox" FOR EACH ROW EXECUTE FUNCTION streamdesk_notify_change();
