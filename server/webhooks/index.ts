export { createWebhookService, DELIVERIES_KEPT_MS, type WebhookService, type WebhookTuning } from "./service.ts";
