/**
 * The one error class a detector throws for bad user input it reads itself (a file a parameter
 * names): the harness treats it as its own `DataError` (one line, exit 2, no stack). Its message
 * names the file and, where there is one, the line: `path:line: problem`.
 */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
  readonly exitCode = 2;
}
