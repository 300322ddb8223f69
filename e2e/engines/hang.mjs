// An engine that stops answering is not the app being slow: a driver command that does not
// answer in time fails with its name (a scenario's own timeout would say neither which
// command nor which side), and the scenario may run once more on a fresh page.

/** A driver command that did not answer in time. */
export class EngineHung extends Error {}

/**
 * `promise`, or an `EngineHung` naming `what` once `ms` have passed without an answer;
 * `onHang(message)` is told first.
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what
 * @param {number} ms
 * @param {(message: string) => void} [onHang]
 * @returns {Promise<T>}
 */
export function bounded(promise, what, ms, onHang) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const message = `${what} did not answer within ${ms} ms`;
      onHang?.(message);
      reject(new EngineHung(message));
    }, ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, hung])).finally(() => clearTimeout(timer));
}
