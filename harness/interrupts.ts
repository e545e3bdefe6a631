/**
 * The one owner of SIGINT and SIGTERM. From the CLI's first line an interrupt says what was kept
 * (nothing, before a command takes over) instead of ending the process without a word; a
 * command that has something to stop (a run) takes the signal with `onInterrupt` and gives it
 * back when done. A second interrupt ends the process at once, as a user pressing Ctrl-C twice
 * expects.
 */
let handler: (() => void) | undefined;

function onSignal(): void {
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (handler) {
    handler();
    return;
  }
  process.stderr.write('interrupted: nothing was written\n');
  process.exit(130);
}

export function installInterrupts(): void {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** `h` handles the next interrupt until the returned function is called. */
export function onInterrupt(h: () => void): () => void {
  const previous = handler;
  handler = h;
  return () => {
    handler = previous;
  };
}
