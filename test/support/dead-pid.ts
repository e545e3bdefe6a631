/** A pid no process has: the highest free one below Linux's largest pid_max (2^22), checked. */
export function deadPid(): number {
  for (let pid = 4_194_000; pid > 4_000_000; pid--) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid found');
}
