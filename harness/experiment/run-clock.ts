/**
 * The run's phases in wall and CPU time (run.json's `phases`): reading, the variants, the
 * studies, writing. CPU outside the variants is what the read and the write cost, apart from
 * what each variant measures for itself.
 */
import type { PhaseTimes } from './run-record.ts';

export interface RunClock {
  /** the end of a phase */
  mark(phase: 'read' | 'variants' | 'studies'): void;
  /** the phases so far, the write phase ending now */
  phases(): PhaseTimes;
}

export function startRunClock(): RunClock {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const at: Partial<Record<'read' | 'variants' | 'studies', number>> = {};
  let cpuRead: NodeJS.CpuUsage | undefined;
  let cpuVariants: NodeJS.CpuUsage | undefined;
  return {
    mark(phase) {
      at[phase] = performance.now();
      if (phase === 'read') cpuRead = process.cpuUsage(cpu0);
      if (phase === 'variants') cpuVariants = process.cpuUsage();
    },
    phases() {
      const cpuAfter = process.cpuUsage(cpuVariants);
      const read = at.read ?? t0;
      const variants = at.variants ?? read;
      const studies = at.studies ?? variants;
      const cpuBefore = cpuRead ?? { user: 0, system: 0 };
      return {
        read_s: (read - t0) / 1000,
        variants_s: (variants - read) / 1000,
        studies_s: (studies - variants) / 1000,
        write_s: (performance.now() - studies) / 1000,
        total_s: (performance.now() - t0) / 1000,
        outsideVariantsCpuS: (cpuBefore.user + cpuBefore.system + cpuAfter.user + cpuAfter.system) / 1e6,
      };
    },
  };
}
