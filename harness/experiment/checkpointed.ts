/**
 * The one resumable step of a run: a variant, or one run of an expanded variant, is taken from
 * the checkpoint (`--resume`) when it was saved with the same identity, else run and saved as
 * soon as it is done. Either way its files go into the run folder.
 */
import type { FileBytes } from '../../kernels/io/pieces.ts';
import { variantIdentity, type Checkpoint, type SavedVariant } from '../results/checkpoint.ts';

/** Where a step's outcome goes. */
export interface RunFolderSink {
  readonly checkpoint: Checkpoint;
  /** writes a file into the run folder */
  write(file: string, bytes: FileBytes): void;
}

/** What is saved under a name: the algorithm and validated parameters it was run with, and anything else that changes its outcome. */
export interface StepIdentity {
  readonly name: string;
  readonly algorithm: string;
  readonly params: unknown;
  /** more that the saved outcome must match (the ground truth's score floor) */
  readonly suffix?: string;
}

export interface StepOutcome {
  readonly saved: SavedVariant;
  /** whether it came from the checkpoint */
  readonly resumed: boolean;
}

/** The identity a step is saved under (its algorithm, parameters and suffix). */
export function stepIdentity(id: StepIdentity): string {
  return variantIdentity(id.algorithm, id.params) + (id.suffix ?? '');
}

/**
 * `step`'s outcome: the checkpoint's when it holds one for `id` that `usable` accepts, else what
 * `run` gives, saved.
 */
export async function checkpointed(
  sink: RunFolderSink,
  id: StepIdentity,
  run: () => Promise<SavedVariant>,
  usable: (saved: SavedVariant) => boolean = () => true,
): Promise<StepOutcome> {
  const identity = stepIdentity(id);
  const saved = sink.checkpoint.restore(id.name, identity);
  if (saved && usable(saved)) {
    for (const f of saved.files) sink.write(f.file, f.bytes);
    return { saved, resumed: true };
  }
  const fresh = await run();
  for (const f of fresh.files) sink.write(f.file, f.bytes);
  sink.checkpoint.save(id.name, identity, fresh);
  return { saved: fresh, resumed: false };
}
