// The client portal's API (docs/architecture.md, "API"; spec §4, §7, §8). Sign-in and
// password reset are public; every other route needs a client session and reads only that
// client's rows (the id comes from the session, never from the request).
import type { FastifyPluginAsync } from "fastify";
import auth from "./auth";
import contactChange from "./contact-change";
import contentRequests from "./content-requests";
import dataExport from "./data-export";
import me from "./me";
import notices from "./notices";
import passwordReset from "./password-reset";
import payments from "./payments";

const routes: FastifyPluginAsync = async (app) => {
  // Personal data and sessions: no shared or browser cache may keep these answers.
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  for (const part of [auth, passwordReset, me, contactChange, payments, contentRequests, notices, dataExport]) await app.register(part);
};

export default routes;
