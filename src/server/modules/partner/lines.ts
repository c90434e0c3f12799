// A partner's lines (issue 45 item 3): added after items 1, 2 and 6.
import type { FastifyPluginAsync } from "fastify";

const routes: FastifyPluginAsync = async () => {};

export default routes;
