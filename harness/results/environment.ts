/** Provenance for run.json: git commit and the machine. */
import { execFile, execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

export function gitState(cwd: string): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

/**
 * gitState without blocking: the two `git` processes run while the run reads and computes (they
 * cost 0.1 to 0.2 s of wall time when run at the end, more on a loaded machine).
 */
export async function gitStateAsync(cwd: string): Promise<{ commit: string | null; dirty: boolean | null }> {
  const run = (args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile('git', args, { cwd }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
  try {
    const [commit, status] = await Promise.all([run(['rev-parse', 'HEAD']), run(['status', '--porcelain', '--untracked-files=no'])]);
    return { commit: commit.trim(), dirty: status.trim().length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

export function machine(): {
  node: string;
  platform: string;
  arch: string;
  cpu_model: string;
  cpus: number;
  memory_gb: number;
} {
  const list = cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpu_model: list[0]?.model.trim() ?? 'unknown',
    cpus: list.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  };
}
