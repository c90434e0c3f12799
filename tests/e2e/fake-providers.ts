// Playwright's second web server: our fakes of Ozow, Yoco and PayFast
// (src/server/adapters/payments/<name>/fake.ts) on the ports playwright.config.ts chose, with the
// merchant keys the app is started with (e2e-env.ts). The app's provider URLs point here, so a
// storefront payment through each of them runs end to end. PayFast starts last: its /health
// answering (Playwright's readiness check) means all three listen.
import { startFakeOzow } from "../../src/server/adapters/payments/ozow/fake";
import { startFakePayfast } from "../../src/server/adapters/payments/payfast/fake";
import { startFakeYoco } from "../../src/server/adapters/payments/yoco/fake";
import { e2eOzow, e2ePayfast, e2eYoco } from "./e2e-env";

const ozow = await startFakeOzow({ ...e2eOzow, port: Number(process.env.E2E_OZOW_PORT) });
// Yoco's webhooks go to the URL the merchant registered with Yoco: ours.
const yoco = await startFakeYoco({
  ...e2eYoco,
  webhookUrl: `http://127.0.0.1:${process.env.E2E_PORT}/api/payments/yoco/webhook`,
  port: Number(process.env.E2E_YOCO_PORT),
});
const payfast = await startFakePayfast({ ...e2ePayfast, port: Number(process.env.E2E_PAYFAST_PORT) });

const stop = () => {
  void Promise.allSettled([payfast.close(), ozow.close(), yoco.close()]).finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
