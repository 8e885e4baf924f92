/** The posts' window: the simulator holds, and the trending contracts rotate over, the last 3 days. */
export const WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
