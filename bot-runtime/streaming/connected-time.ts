/**
 * Seconds a socket was connected while it counted (from the recording's start to the end of the run):
 * what streaming is charged for. Pure but for the clock it is given.
 */
export class ConnectedTime {
  private totalMs = 0;
  private connectedSince: number | null = null;
  private counting = false;

  constructor(private readonly clock: () => number = Date.now) {}

  connected(): void {
    if (this.connectedSince === null) this.connectedSince = this.clock();
  }

  disconnected(): void {
    this.settle();
    this.connectedSince = null;
  }

  /** from now on connected time counts (the recording started) */
  startCounting(): void {
    this.settle();
    this.counting = true;
  }

  stopCounting(): void {
    this.settle();
    this.counting = false;
  }

  seconds(): number {
    this.settle();
    return Math.round(this.totalMs / 100) / 10;
  }

  private settle(): void {
    const now = this.clock();
    if (this.connectedSince !== null) {
      if (this.counting) this.totalMs += now - this.connectedSince;
      this.connectedSince = now;
    }
  }
}
