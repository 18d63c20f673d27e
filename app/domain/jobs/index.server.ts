// Every background round the worker runs beside sending and inbound processing, in one list. A context that has
// durable work of its own (campaign fires, emails, renewals, webhook deliveries, file clean-up) adds its round here.
import type { Database } from "#db/index";
import type { WorkerRound } from "./round";
import { runDueFires } from "~/domain/campaigns/engine.server";

export type { WorkerRound } from "./round";

/** What the rounds may use: the database, the clock, and the configuration they read. */
export interface JobDeps {
  db: Database;
  now: () => Date;
  config: {
    messaging: { sendDelaySeconds: number; dmSendDelaySeconds?: number };
    publicUrl?: string;
  };
}

/** The rounds, in the order a single `tick()` runs them. */
export function workerRounds(deps: JobDeps): WorkerRound[] {
  return [
    // Campaign steps that have come due: issues, closes, draws, reminders.
    { name: "campaign-fires", run: () => runDueFires(deps) },
  ];
}
