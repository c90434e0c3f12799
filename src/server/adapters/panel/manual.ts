// Manual mode (PANEL_MODE=manual), for resellers whose panel gives no API access: every step
// is a task for the owner. The provisioning job words the task; once the owner pastes the
// line's login, everything after it (the subscriber's message, the portal) is automatic.
import { ManualStep, type PanelAdapter, PanelError, SUB_RESELLERS_NEED_API } from "./panel";

const noResellers = async (): Promise<never> => {
  throw new PanelError(SUB_RESELLERS_NEED_API, "NO_API", false);
};

export function createManualPanel(): PanelAdapter {
  const step = async (): Promise<never> => {
    throw new ManualStep("");
  };
  return {
    mode: "manual",
    userInfo: async () => ({ credits: null }),
    packages: async () => [],
    lines: async () => [],
    findLine: async () => null,
    createLine: step,
    editLine: step,
    enableLine: step,
    disableLine: step,
    changeMac: step,
    clearIspLock: step,
    // A sub-reseller lives on the panel: with no API there is nothing to make, fund or list.
    createUser: noResellers,
    adjustCredits: noResellers,
    users: noResellers,
  };
}
