// A CLI failure the user can act on: printed as one sentence, exit code 1, no stack.
export class CliFailure extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
