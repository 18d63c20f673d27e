// A round of background work the worker runs in a loop of its own: claim what is due, do it, say how much was done.
// Returning 0 tells the worker there was nothing to do, and the loop sleeps until the next poll or a poke.
// Each round keeps its state in database rows claimed atomically (db/claim.ts), so any number of workers in any
// number of processes can run the same rounds side by side.
export interface WorkerRound {
  /** A short name for logs. */
  name: string;
  /** One pass over the work that is due; returns how many items it handled. */
  run(): Promise<number>;
}
