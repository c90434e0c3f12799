// POST /api/interest (the spec's process-client-interest): saves the lead; 201 {success, id}.
import type { InterestResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export interface InterestSubmission {
  firstName: string;
  lastName: string;
  email: string;
  whatsapp: string;
  communicationMethod: "whatsapp" | "email";
  packageName: string;
  packagePrice: number | "FREE";
  duration: string;
  marketingOptIn: boolean;
}

export function submitInterest(form: InterestSubmission): Promise<InterestResponse> {
  return apiSend<InterestResponse>("POST", "/interest", form);
}
