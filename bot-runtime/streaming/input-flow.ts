/**
 * When to stop reading the customer's input socket: the page plays input frames in real time, so frames
 * handed to it faster than that wait, either on the way (page calls not yet answered) or in the page
 * (audio scheduled ahead). Past a high mark on either, reading stops (`hold(true)`); it starts again below
 * a low mark: after the calls are answered, or after the time the page needs to play the surplus.
 */
/** page calls on the way: about a second of frames */
export const MAX_FRAMES_ON_THE_WAY = 10;
/** seconds of audio scheduled ahead in the page */
export const MAX_SECONDS_AHEAD = 2;
const RESUME_FRAMES_ON_THE_WAY = 2;
const RESUME_SECONDS_AHEAD = 1;

export class InputFlow {
  private onTheWay = 0;
  private heldForCalls = false;
  private heldForAudio: NodeJS.Timeout | null = null;
  private held = false;

  constructor(private readonly hold: (held: boolean) => void) {}

  /** A frame is being handed to the page. */
  handing(): void {
    this.onTheWay++;
    if (this.onTheWay >= MAX_FRAMES_ON_THE_WAY) this.heldForCalls = true;
    this.update();
  }

  /** The page took a frame and has `aheadSeconds` of audio waiting to be played. */
  handed(aheadSeconds: number): void {
    this.onTheWay = Math.max(0, this.onTheWay - 1);
    if (this.onTheWay <= RESUME_FRAMES_ON_THE_WAY) this.heldForCalls = false;
    if (aheadSeconds > MAX_SECONDS_AHEAD && !this.heldForAudio) {
      this.heldForAudio = setTimeout(() => {
        this.heldForAudio = null;
        this.update();
      }, (aheadSeconds - RESUME_SECONDS_AHEAD) * 1000);
    }
    this.update();
  }

  close(): void {
    if (this.heldForAudio) clearTimeout(this.heldForAudio);
    this.heldForAudio = null;
  }

  private update(): void {
    const held = this.heldForCalls || this.heldForAudio !== null;
    if (held === this.held) return;
    this.held = held;
    this.hold(held);
  }
}
