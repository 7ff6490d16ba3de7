// Playback of recorded frames at a pace that fits the run: about 15 seconds for the whole run
// whatever its length (at least half a frame a second), times the user's speed factor. Pure:
// tested with Node; the views drive it with `tick` from requestAnimationFrame.

/** Seconds a whole run plays in at speed ×1. */
export const PLAY_SECONDS = 15;

export class Player {
  constructor() {
    this.position = 0;
    this.length = 0;
    this.playing = false;
    this.factor = 1;
    this.carry = 0;
  }

  /** Frames a second at the current length and speed factor. */
  get rate() {
    return Math.max(0.5, this.length / PLAY_SECONDS) * this.factor;
  }

  /** Advances by `seconds` of playing; returns whether the position changed. */
  tick(seconds) {
    if (!this.playing || this.position >= this.length) return false;
    this.carry += seconds * this.rate;
    const whole = Math.floor(this.carry);
    if (whole < 1) return false;
    this.carry -= whole;
    this.position = Math.min(this.length, this.position + whole);
    return true;
  }

  /** One frame forward or back (pauses). */
  step(delta) {
    this.playing = false;
    this.carry = 0;
    this.position = Math.max(0, Math.min(this.length, this.position + delta));
  }

  /** Goes to frame `k` (pauses). */
  seek(k) {
    this.playing = false;
    this.carry = 0;
    this.position = Math.max(0, Math.min(this.length, Math.round(k)));
  }

  /** Plays or pauses; a run played to its end plays again from the start. Returns whether it plays. */
  toggle() {
    if (this.position >= this.length) this.seek(0);
    this.playing = !this.playing;
    return this.playing;
  }

  /** Doubles or halves the speed, within ×1/16 to ×64. */
  faster(up) {
    this.factor = Math.max(1 / 16, Math.min(64, this.factor * (up ? 2 : 0.5)));
  }
}
