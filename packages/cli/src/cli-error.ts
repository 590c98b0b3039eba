/** An error whose message is meant for the user as is: printed without a stack, exit code 1 (or `exitCode`). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}
