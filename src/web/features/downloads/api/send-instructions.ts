// POST /api/downloads/:id/instructions {type, contact}: the server sends the app's own
// installation guide on that channel (it never sends text from the browser).
import type { InstructionsResponse } from "@/shared/api";
import { apiSend } from "@/web/lib/api";

export type InstructionChannel = "whatsapp" | "email";

export function sendInstructions(appId: string, type: InstructionChannel, contact: string): Promise<InstructionsResponse> {
  return apiSend<InstructionsResponse>("POST", `/downloads/${encodeURIComponent(appId)}/instructions`, { type, contact });
}
