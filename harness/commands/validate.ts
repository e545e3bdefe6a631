import type { CommandModule } from 'yargs';
import { loadExperiment } from '../experiment/load.ts';

export const validateCommand: CommandModule<object, { config: string }> = {
  command: 'validate <config>',
  describe: 'check a config without running it: schema, ${VARS}, files, sweeps',
  builder: (y) => y.positional('config', { type: 'string', demandOption: true, describe: 'experiment YAML file' }),
  handler: async (args) => {
    const exp = await loadExperiment(args.config, process.env);
    const names = [exp.groundTruth, ...exp.variants].map((v) => `  ${v.name}`);
    process.stdout.write(
      `${args.config}: valid — experiment ${exp.name}, ${exp.corpus.format} corpus, backend ${exp.backend.kind}, ` +
        `${exp.variants.length + 1} variants:\n${names.join('\n')}\n`,
    );
  },
};
