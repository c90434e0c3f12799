// The review dialog's state (pay-review-dialog.tsx): the payer form, the way to pay picked, the
// coupon's quote, who is paying (asked of the server once per number and e-mail), and the submit
// that opens the pay link's tab inside the click or shows the EFT details.
import { type FormEvent, useRef, useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { EftResponse } from "@/shared/api";
import { autoRenewConsent } from "@/shared/auto-renew";
import type { CouponQuote } from "@/shared/billing";
import { promisedLoginChannel } from "@/shared/login-channel";
import { type PlanViewModel, packageMonths } from "@/shared/pricing";
import {
  type IdentifyResponse,
  type PayerDevice,
  payerDeviceSchema,
  VERIFICATION_CODE_MESSAGES,
  verificationCodeSchema,
} from "@/shared/schemas";
import { deviceRequest } from "@/web/components/device-line-field";
import { fieldAria } from "@/web/components/form-field";
import { ApiError } from "@/web/lib/api";
import { closeTab } from "@/web/lib/new-tab";
import { usePaymentMethods } from "@/web/lib/queries/payment-methods";
import { findProvider, usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { toast } from "@/web/lib/toast";
import { checkCoupon } from "./api/check-coupon";
import { identifyPayer } from "./api/identify-payer";
import { openPaymentTab, PAYER_FIELDS, PAYMENT_MESSAGES, type PayerField, payByCard, payByEft } from "./pay-now";
import { canProve, fieldId, type Method, methodChoices, type PayerValues, paymentMethod, savesCard, type Way } from "./pay-review-model";

/** The code the wa.me link writes: once that message has reached the shop, it pays on the account. */
const codeOfLink = (waLink: string): string => decodeURIComponent(waLink.split("?text=")[1] ?? "").match(/\d{6}/)?.[0] ?? "";
export function usePayReview({
  plan,
  onClose,
  form,
}: {
  plan: PlanViewModel & { packageId: string };
  onClose: () => void;
  /** the payer form the dialog builds (its schema beside the fields it renders) */
  form: UseFormReturn<PayerValues, unknown, PayerDevice>;
}) {
  const methods = usePaymentMethods();
  const providers = usePaymentProviders();
  const choices = methodChoices(methods, providers);
  const testCheckout = methods ? findProvider(providers, methods.card)?.test === true : false;
  const [picked, setPicked] = useState<Method | null>(null);
  // The first way on offer (the card provider when it is on) until the visitor picks another.
  const method = picked && choices.some((c) => c.id === picked) ? picked : paymentMethod(methods);
  const providerName = methods?.providers?.find((p) => p.id === method)?.name;
  const [eft, setEft] = useState<EftResponse | null>(null);
  const [quote, setQuote] = useState<CouponQuote | null>(null);
  const { handleSubmit, getValues, setError, clearErrors, formState, watch, trigger } = form;
  const { errors, isSubmitting } = formState;

  // Who is paying: asked of the server once per number and e-mail typed (identifyPayer).
  const [identity, setIdentity] = useState<{ key: string; answer: IdentifyResponse } | null>(null);
  const asNew = useRef(false);

  const send = async (payer: PayerDevice, tab: Window | null, way: Way) => {
    const key = `${payer.whatsapp}|${payer.email ?? ""}`;
    const known = identity?.key === key ? identity.answer : null;
    let verificationCode: string | undefined;
    const typed = known ? getValues("verificationCode").trim() : "";
    // where no code can have come, an empty field goes on as a new customer
    if (known && !asNew.current && (canProve(known) || typed)) {
      // nothing typed, and the link was offered: its code (proved once the message arrives)
      const code = verificationCodeSchema.safeParse(typed || !known.waLink ? typed : codeOfLink(known.waLink));
      if (!code.success) {
        closeTab(tab);
        setError("verificationCode", { type: "client", message: VERIFICATION_CODE_MESSAGES.format }, { shouldFocus: true });
        return;
      }
      verificationCode = code.data;
    }
    const { lineType: _type, mac: _mac, ...who } = payer;
    const request = {
      packageId: plan.packageId,
      ...who,
      ...deviceRequest(payer),
      ...(verificationCode ? { verificationCode } : {}),
      ...(way !== "card" && way !== "eft" && savesCard(providers, way) && getValues("autoRenew") ? { autoRenew: true } : {}),
    };
    const attempt = way === "eft" ? await payByEft(request) : await payByCard(way === "card" ? request : { ...request, method: way }, tab);
    if (attempt.ok) {
      if (attempt.value) setEft(attempt.value);
      else onClose();
      return;
    }
    // What the visitor typed stays; the server's reasons go beside the fields they are about.
    const named = PAYER_FIELDS.filter((name) => attempt.fields[name]);
    named.forEach((name, i) => {
      setError(name, { type: "server", message: attempt.fields[name] }, { shouldFocus: i === 0 });
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting || method === undefined || method === "none") return;
    // Which button sent it: "Continue as a new customer" skips the code; with both ways on, each
    // pay button names its own (Enter in a field is the first: card).
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    asNew.current = submitter?.getAttribute("data-as-new") === "true";
    const way: Way = method === "both" ? (submitter?.getAttribute("data-method") === "eft" ? "eft" : "card") : method;
    // The pay link's tab opens now, inside the click (popup blockers), and only for details that will pass.
    const tab = way !== "eft" && payerDeviceSchema.safeParse(getValues()).success ? openPaymentTab() : null;
    void handleSubmit(
      (payer) => send(payer, tab, way),
      () => closeTab(tab),
    )(event);
  };

  const aria = (name: PayerField, hint = false) => fieldAria(fieldId(name), { error: errors[name]?.message, hint });
  const typedKey = `${watch("whatsapp")}|${watch("email")}`;
  const askCode = Boolean(identity && identity.key === normalisedKey(typedKey));
  // "Already a customer?": the same answer whoever the number belongs to; the code field follows
  const [asking, setAsking] = useState(false);
  const askForCode = async () => {
    if (!(await trigger(["whatsapp", "email"]))) return;
    const { whatsapp, email } = getValues();
    setAsking(true);
    const asked = await identify({ whatsapp: whatsapp.trim(), email: email?.trim() });
    setAsking(false);
    if (!asked.ok) {
      asked.fields.forEach(([name, message], i) => {
        setError(name, { type: "server", message }, { shouldFocus: i === 0 });
      });
      return;
    }
    asNew.current = false;
    setIdentity({ key: normalisedKey(`${whatsapp}|${email ?? ""}`), answer: asked.answer });
  };
  // the hints promise the login where it will go (the outbox's rule, shared/login-channel.ts)
  const loginChannel = promisedLoginChannel(methods?.loginChannel, watch("email") ?? "");
  // the consent sentence: the plan's price and period (what each renewal charges, and when)
  const renewal =
    method && savesCard(providers, method) && typeof plan.price === "number"
      ? autoRenewConsent(
          Math.round((plan.originalPrice ?? plan.price) * 100),
          packageMonths({ duration_months: null, duration: plan.duration, name: plan.packageName }) ?? 1,
        )
      : null;
  // Apply: the coupon is priced by the server now, and checked again when the payment is made
  const applyCoupon = async () => {
    const code = getValues("coupon").trim();
    clearErrors("coupon");
    setQuote(null);
    if (!code) return;
    const answer = await checkCoupon({ packageId: plan.packageId, coupon: code, whatsapp: getValues("whatsapp") });
    if (answer.ok) setQuote(answer.quote);
    else setError("coupon", { type: "server", message: answer.message }, { shouldFocus: true });
  };
  return {
    /** the ways to pay on offer, the one picked, and the EFT details once they are asked for */
    payment: { choices, method, pick: setPicked, providerName, testCheckout, renewal, eft },
    /** "Already a customer?": the server's answer while it is for the number and e-mail typed */
    code: { answer: askCode && identity ? identity.answer : null, asking, ask: askForCode },
    coupon: { quote, apply: applyCoupon },
    /** the payer form's submit, each field's aria attributes, and where the login details are promised */
    review: { onSubmit, aria, loginChannel },
  };
}

/** The same contact as the server is asked about: the schema's trimmed values. */
function normalisedKey(typed: string): string {
  const [whatsapp = "", email = ""] = typed.split("|");
  return `${whatsapp.trim()}|${email.trim()}`;
}

/** Asks the server for a code to the account's contacts, if there is one; a refusal as field messages (or a toast). */
async function identify(
  payer: Pick<PayerDevice, "whatsapp" | "email">,
): Promise<{ ok: true; answer: IdentifyResponse } | { ok: false; fields: [PayerField, string][] }> {
  try {
    return { ok: true, answer: await identifyPayer({ whatsapp: payer.whatsapp, email: payer.email }) };
  } catch (error) {
    // Asked too often from here: said at the number, not as a payment failure; paying goes on as a new customer.
    if (error instanceof ApiError && error.status === 429) {
      return { ok: false, fields: [["whatsapp", error.message || "Too many requests. Please wait a minute and try again."]] };
    }
    if (error instanceof ApiError && error.status === 400) {
      const fields = PAYER_FIELDS.filter((name) => error.fields[name]).map((name) => [name, error.fields[name]] as [PayerField, string]);
      if (fields.length) return { ok: false, fields };
    }
    toast.error(PAYMENT_MESSAGES.errorTitle, {
      description: error instanceof ApiError && error.status > 0 && error.message ? error.message : PAYMENT_MESSAGES.unexpected,
    });
    return { ok: false, fields: [] };
  }
}
