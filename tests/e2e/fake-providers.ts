// Playwright's second web server: our fake PayFast (src/server/adapters/payments/fake-payfast.ts)
// on the port playwright.config.ts chose, with the merchant the app is started with (e2e-env.ts).
// The app's PAYFAST_URL points here, so a storefront payment through PayFast runs end to end.
import { startFakePayfast } from "../../src/server/adapters/payments/fake-payfast";
import { e2ePayfast } from "./e2e-env";

const fake = await startFakePayfast({ ...e2ePayfast, port: Number(process.env.E2E_PAYFAST_PORT) });
const stop = () => {
  void fake.close().finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
