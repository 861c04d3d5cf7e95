import type { PendingTasks } from '@angular/core';

/**
 * Runs `work` in a task of its own after the browser has painted the next frame, and returns a function that
 * cancels it. For work the person is not waiting for (a side list, the URL) that would otherwise share the task
 * that draws what they clicked. The app stays unstable (`whenStable`) until the work ran or was cancelled.
 */
export function afterPaint(pendingTasks: PendingTasks, work: () => void): () => void {
  const settled = pendingTasks.add();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => {
      settled();
      work();
    });
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    settled();
  };
}
