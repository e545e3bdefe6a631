/** The placeholders of an external detector's command and environment (`{corpus}`). */

/** The placeholders the harness fills in; the detector's `args` add theirs. */
export const PLACEHOLDERS = ['program', 'interpreter', 'corpus', 'output', 'seed'] as const;

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholder names in one argument (`--in={corpus}` → corpus). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}
