/** Provenance for run.json: git commit and the machine. */
import { execFileSync } from 'node:child_process';
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
