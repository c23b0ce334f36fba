/** Test helpers about processes. */

/** A process id no process has now (signal 0 answers ESRCH). */
export function deadPid(): number {
  for (let pid = 4_000_000; pid > 1000; pid -= 7919) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free process id found');
}
