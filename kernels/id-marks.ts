/**
 * Sets of small non-negative ids (dense numberings, such as a KeyTable's) as marks in typed
 * arrays instead of a Set or Map: `has(id)` while a set is the current one, and an id's place in
 * it. Starting a set is O(1) (a new stamp), so one instance serves document after document. Ids
 * at or above `cap` do not fit: `start` says so, and the caller falls back to a Map.
 */
export class IdMarks {
  private stamps = new Uint32Array(1 << 16);
  private places = new Uint32Array(1 << 16);
  private stamp = 0;

  constructor(private readonly cap: number = 1 << 23) {}

  /** Starts an empty set for ids below `top`; false when they do not fit under the cap. */
  start(top: number): boolean {
    if (top > this.cap) return false;
    if (top > this.stamps.length) {
      const size = Math.max(top, 2 * this.stamps.length);
      this.stamps = new Uint32Array(size);
      this.places = new Uint32Array(size);
      this.stamp = 0;
    }
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    return true;
  }

  /** Puts `id` in the current set at `place`. */
  add(id: number, place = 0): void {
    this.stamps[id] = this.stamp;
    this.places[id] = place;
  }

  has(id: number): boolean {
    return this.stamps[id] === this.stamp;
  }

  /** The place `id` was added at (meaningful when `has(id)`). */
  placeOf(id: number): number {
    return this.places[id] as number;
  }
}
