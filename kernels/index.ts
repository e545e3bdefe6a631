/**
 * The project's lowest layer: pure functions over typed arrays (stable sorts, postings, list
 * offsets, sets of small ids as marks), the one atomic file write, and a WebAssembly assembler
 * (wasm/assembler.ts, and wasm/runtime.ts: the API, a memory grown to size; imported by path).
 * It imports nothing else of the project.
 */
export { IdMarks } from './id-marks.ts';
export { countsToStarts, listOffsets, type ListOffsetsOptions } from './list-offsets.ts';
export { invertLists, type InvertListsOptions, type Postings } from './postings.ts';
export { compareKeys } from './sort/compare-keys.ts';
export { DEFAULT_DIGIT_BITS, digitPlan, MAX_DIGIT_BITS, significantBits, type DigitPlan } from './sort/digit-plan.ts';
export { sortPairColumns, type PairColumns } from './sort/pair-list.ts';
export { sortRecords, type RecordSortOptions, type SortedRecords } from './sort/records.ts';
export { stableOrder, type StableOrderOptions } from './sort/stable-order.ts';
export { temporaryBeside, writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions, type FileContent } from './io/atomic-write.ts';
