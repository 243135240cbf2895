/**
 * `work`'s outcome, or the error `onTimeout` makes when `millis` pass first. One promise and one timer, cleared
 * by whichever settles first: cheaper than a race with an async finally on a path every request takes (the
 * transport's local shortcut), and the same shape for the tasks APIs' `wait_for_completion` deadline.
 */
export function settleWithin<T>(work: Promise<T>, millis: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), Math.max(0, millis));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
