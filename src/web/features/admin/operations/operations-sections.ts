// Operations: content requests, notices, system status, outbox, knowledge base, releases, audit log.
import type { AdminSection } from "../sections";

export const operationsSections: AdminSection[] = [];
