// Device orientation in, for the demo page and the viewer: the readings (after the cached
// ones browsers hand a new listener) with the screen's rotation, and iOS's permission. What a
// reading means (the attitude quaternion, smoothing, recentring) is the Swift core's.

/** The screen's rotation, degrees: 0, 90, 180 or 270 (−90 on old iOS). */
export function screenAngle() {
  return (screen.orientation && screen.orientation.angle) || window.orientation || 0;
}

/**
 * Calls `onReading(alpha, beta, gamma, screenAngle, seconds)` for each `deviceorientation`
 * reading; returns a function that stops listening. The first two readings are skipped:
 * right after a listener is added, browsers may hand over a cached reading taken before the
 * page listened (Pannellum skips them too), and the tracker recentres on its first sample,
 * so a stale one would set the wrong straight-ahead.
 */
export function listenToOrientation(onReading) {
  let seen = 0;
  const handler = (e) => {
    if (e.alpha == null || e.beta == null || e.gamma == null) return;
    if (++seen <= 2) return;
    onReading(e.alpha, e.beta, e.gamma, screenAngle(), e.timeStamp / 1000);
  };
  window.addEventListener('deviceorientation', handler);
  return () => window.removeEventListener('deviceorientation', handler);
}

/** Whether this browser asks for motion access inside a click (iOS Safari; Chromium too). */
export const asksPermission = () =>
  typeof DeviceOrientationEvent !== 'undefined' && typeof DeviceOrientationEvent.requestPermission === 'function';

/** Asks for motion access (call it inside a click): 'granted', 'denied', or 'granted' where nothing is asked. */
export async function requestMotionPermission() {
  if (!asksPermission()) return 'granted';
  return (await DeviceOrientationEvent.requestPermission()) === 'granted' ? 'granted' : 'denied';
}
